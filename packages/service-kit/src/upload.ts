import { availableParallelism } from 'node:os';
import sharp, { type Metadata } from 'sharp';
import { HttpError, MESSAGES } from './errors.ts';

/**
 * The one way a service takes in an uploaded picture: sniff what it is by its bytes, decode it
 * under a pixel cap, re-encode it as a WebP of bounded size without any metadata, and never decode
 * more than a few at once per process. Imported as `@ruilplein/service-kit/upload`, so services
 * without uploads do not load sharp.
 */

export type ImageFormat = 'jpeg' | 'png' | 'webp';

/** What the first bytes say the content is; the name and declared type of an upload are ignored. */
export function sniffImage(data: Buffer): ImageFormat | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/** A picture refused for what it is (a 400 with the route's Dutch message). */
export class ImageRejected extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

export interface ImageOptions {
  /** Longest side of the stored picture; smaller pictures are not enlarged. */
  maxSide: number;
  /** Decoding stops above this many pixels (a small file can unpack into gigabytes). */
  maxInputPixels: number;
  /** Formats accepted; JPG, PNG and WEBP unless said otherwise. */
  formats?: readonly ImageFormat[];
  /** WebP quality of the stored picture. */
  quality?: number;
  /** Longest side of an extra, smaller copy (list views). */
  thumbnail?: number;
  /** A tiny blurred WebP as a data URL, shown while the picture loads. */
  placeholder?: boolean;
  /** Dutch messages of the route. */
  messages: { wrongType: string; tooManyPixels: string };
}

export interface ProcessedImage {
  /** The WebP to store. */
  data: Buffer;
  width: number;
  height: number;
  thumbnail?: Buffer;
  /** `data:image/webp;base64,…`, some hundred bytes. */
  placeholder?: string;
}

/**
 * How many pictures a process decodes at once: IMAGE_CONCURRENCY, else the cores, at most 2.
 * Each decode holds its whole bitmap (a 40-megapixel picture is 120 MB), so 16 uploads at once
 * must queue here rather than all decode together.
 */
const DEFAULT_CONCURRENCY = Math.max(1, Math.floor(Number(process.env.IMAGE_CONCURRENCY)) || Math.min(2, availableParallelism()));
/** Pictures allowed to wait; beyond it an upload is refused with 503 rather than held in memory. */
const MAX_WAITING = 64;

// One libvips thread per picture: the semaphore decides the parallelism, not libvips' own pool.
// The operation cache would keep decoded bitmaps alive after their request.
sharp.concurrency(1);
sharp.cache(false);

export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  readonly limit: number;
  readonly maxWaiting: number;
  constructor(limit: number, maxWaiting = Infinity) {
    this.limit = limit;
    this.maxWaiting = maxWaiting;
  }

  get running() {
    return this.active;
  }
  get queued() {
    return this.waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      if (this.waiting.length >= this.maxWaiting) throw new HttpError(503, MESSAGES.unavailable);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await work();
    } finally {
      // Hand the slot straight to the next waiter (active stays the same), or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** The process-wide bound on pictures being decoded. */
export const imageSlots = new Semaphore(DEFAULT_CONCURRENCY, MAX_WAITING);

const isPixelLimit = (err: unknown) => /pixel limit/i.test(String(err));

/**
 * Checks that an upload is one of the accepted formats and really decodes, and re-encodes it as a
 * WebP of at most `maxSide` pixels a side, turned upright by its EXIF orientation and without any
 * metadata (EXIF, GPS, ICC, XMP); sharp writes none unless asked.
 */
export function processImage(data: Buffer, options: ImageOptions): Promise<ProcessedImage> {
  const { messages } = options;
  const format = sniffImage(data);
  if (!format || !(options.formats ?? ['jpeg', 'png', 'webp']).includes(format)) return Promise.reject(new ImageRejected(messages.wrongType));
  const rejected = (err: unknown) => new ImageRejected(isPixelLimit(err) ? messages.tooManyPixels : messages.wrongType);

  return imageSlots.run(async () => {
    const input = () => sharp(data, { failOn: 'error', limitInputPixels: options.maxInputPixels, animated: false, sequentialRead: true });
    let meta: Metadata;
    try {
      meta = await input().metadata();
    } catch (err) {
      throw rejected(err);
    }
    // A PNG header in front of something else is not a PNG.
    if (meta.format !== format) throw new ImageRejected(messages.wrongType);
    const pixels = (meta.width ?? 0) * (meta.height ?? 0);
    if (pixels > options.maxInputPixels) throw new ImageRejected(messages.tooManyPixels);

    const encode = (side: number, quality: number) =>
      input().autoOrient().resize(side, side, { fit: 'inside', withoutEnlargement: true }).webp({ quality, effort: 4 }).toBuffer({ resolveWithObject: true });
    try {
      const main = await encode(options.maxSide, options.quality ?? 82);
      const result: ProcessedImage = { data: main.data, width: main.info.width, height: main.info.height };
      // Smaller copies come from the stored picture, not the original: no second full decode.
      const small = (side: number, quality: number) =>
        sharp(main.data).resize(side, side, { fit: 'inside', withoutEnlargement: true }).webp({ quality }).toBuffer();
      if (options.thumbnail) result.thumbnail = await small(options.thumbnail, options.quality ?? 82);
      if (options.placeholder) result.placeholder = `data:image/webp;base64,${(await small(10, 40)).toString('base64')}`;
      return result;
    } catch (err) {
      throw rejected(err);
    }
  });
}
