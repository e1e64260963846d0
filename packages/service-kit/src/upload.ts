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
  /** The request's time (admitImages): a picture not done by its deadline is ImageBusy(503). */
  budget?: ImageBudget;
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

  /**
   * Runs `work` in a slot. With a `deadline` (performance.now() ms), a turn that has not come by
   * then is given up: the caller is taken out of the queue and gets `late()`.
   */
  async run<T>(work: () => Promise<T>, deadline?: number, late: () => Error = () => new HttpError(503, MESSAGES.unavailable)): Promise<T> {
    if (this.active >= this.limit) {
      if (this.waiting.length >= this.maxWaiting) throw new HttpError(503, MESSAGES.unavailable);
      await new Promise<void>((resolve, reject) => {
        const turn = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer =
          deadline === undefined
            ? undefined
            : setTimeout(() => {
                const at = this.waiting.indexOf(turn);
                if (at < 0) return; // the slot was handed over meanwhile
                this.waiting.splice(at, 1);
                reject(late());
              }, Math.max(0, deadline - performance.now()));
        this.waiting.push(turn);
      });
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

/**
 * A request's pictures refused for want of room or time: 503 (the process is full, nothing was
 * stored) or 429 (the member has work in progress), with the seconds to wait for Retry-After.
 */
export class ImageBusy extends HttpError {
  readonly retryAfter: number;
  constructor(status: 429 | 503, message: string, retryAfter: number) {
    super(status, message);
    this.retryAfter = retryAfter;
  }
}

/**
 * The time a request's pictures may take: every picture done by `deadline` (performance.now() ms),
 * else ImageBusy(503, `busy`). Bounds waiting too: a request does not queue past its deadline.
 */
export interface ImageBudget {
  deadline: number;
  busy: string;
}

/**
 * The pace of this process's image work, for admitting requests: milliseconds per megapixel
 * (a moving average of the pictures done, starting pessimistic) and the megapixels admitted and
 * not yet done. A request whose pictures would not be done by its deadline at that pace is refused
 * at once rather than after waiting its whole budget.
 */
const pace = { msPerMegapixel: 15, pendingMegapixels: 0 };

/** Milliseconds until the work admitted so far, plus `megapixels` more, is done at the measured pace. */
const imageBacklogMs = (megapixels = 0) => ((pace.pendingMegapixels + megapixels) * pace.msPerMegapixel) / imageSlots.limit;

function recordPace(pixels: number, ms: number) {
  if (pixels < 1e5) return;
  pace.msPerMegapixel = 0.7 * pace.msPerMegapixel + 0.3 * (ms / (pixels / 1e6));
}

/** Pixels a picture says it has (its header only; no decode). 0 when it says nothing usable: processImage refuses it. */
async function headerPixels(data: Buffer): Promise<number> {
  if (!sniffImage(data)) return 0;
  try {
    const meta = await sharp(data).metadata();
    return (meta.width ?? 0) * (meta.height ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Admits one request's pictures into this process's image work, or refuses them at once (503 with
 * Retry-After, the backlog's seconds) when they would not be done by the budget's deadline at the
 * measured pace. An admitted request counts as backlog until `release()`.
 */
export async function admitImages(datas: readonly Buffer[], budget: ImageBudget): Promise<{ release(): void }> {
  const megapixels = (await Promise.all(datas.map(headerPixels))).reduce((sum, p) => sum + p, 0) / 1e6;
  const retryAfter = () => Math.min(60, Math.max(1, Math.ceil(imageBacklogMs() / 1000)));
  if (performance.now() + imageBacklogMs(megapixels) > budget.deadline) throw new ImageBusy(503, budget.busy, retryAfter());
  pace.pendingMegapixels += megapixels;
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      pace.pendingMegapixels = Math.max(0, pace.pendingMegapixels - megapixels);
    },
  };
}

/** At most `limit` jobs per key (a member) at once in this process. */
export class PerKeyLimit {
  private readonly counts = new Map<string, number>();
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }
  /** A function that ends the job, or undefined when the key has `limit` jobs already. */
  enter(key: string): (() => void) | undefined {
    const count = this.counts.get(key) ?? 0;
    if (count >= this.limit) return undefined;
    this.counts.set(key, count + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    };
  }
}

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

  const { budget } = options;
  const late = () => new ImageBusy(503, budget!.busy, Math.min(60, Math.max(1, Math.ceil(imageBacklogMs() / 1000))));
  const checkTime = () => {
    if (budget && performance.now() > budget.deadline) throw late();
  };

  const running = imageSlots.run(async () => {
    const started = performance.now();
    checkTime();
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
      recordPace(pixels, performance.now() - started);
      checkTime();
      return result;
    } catch (err) {
      if (err instanceof ImageBusy) throw err;
      throw rejected(err);
    }
  }, budget?.deadline, budget && late);
  return budget ? byDeadline(running, budget.deadline, late) : running;
}

/**
 * The picture's answer, or `late()` at the deadline while it is still being decoded: the request
 * is answered in time; the decode runs on and keeps its slot until it ends (its result is dropped).
 */
function byDeadline<T>(work: Promise<T>, deadline: number, late: () => Error): Promise<T> {
  work.catch(() => {}); // a decode that ends after the refusal must not become an unhandled rejection
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), Math.max(0, deadline - performance.now()));
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
