import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/errors.ts';
import { admitImages, ImageBusy, imageSlots, ImageRejected, PerKeyLimit, processImage, Semaphore, sniffImage, type ImageOptions } from '../src/upload.ts';

const canvas = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } });
const options: ImageOptions = { maxSide: 400, maxInputPixels: 1_000_000, messages: { wrongType: 'Verkeerd type.', tooManyPixels: 'Te veel pixels.' } };

describe('processImage', () => {
  it('stores a WebP within maxSide without EXIF, GPS or ICC, with a thumbnail and a tiny placeholder', async () => {
    const photo = await canvas(900, 600)
      .withExif({ IFD0: { Artist: 'Geheime eigenaar' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 0/1' } })
      .withIccProfile('p3')
      .jpeg()
      .toBuffer();
    const out = await processImage(photo, { ...options, thumbnail: 120, placeholder: true });
    expect([out.width, out.height]).toEqual([400, 267]);
    const meta = await sharp(out.data).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 400, height: 267 });
    expect([meta.exif, meta.icc, meta.xmp]).toEqual([undefined, undefined, undefined]);
    expect(out.data.includes(Buffer.from('Geheime eigenaar'))).toBe(false);
    expect(await sharp(out.thumbnail).metadata()).toMatchObject({ format: 'webp', width: 120, height: 80 });
    expect(out.placeholder).toMatch(/^data:image\/webp;base64,/);
    expect(out.placeholder!.length).toBeLessThan(400);
    const tiny = Buffer.from(out.placeholder!.split(',')[1]!, 'base64');
    expect(await sharp(tiny).metadata()).toMatchObject({ format: 'webp', width: 10, height: 7 });
  });

  it('refuses by content, not by name: unknown bytes, a format not allowed, a lying header, too many pixels', async () => {
    const reject = (data: Buffer, opts: Partial<ImageOptions> = {}) => processImage(data, { ...options, ...opts });
    await expect(reject(Buffer.from('gewoon tekst'))).rejects.toThrow('Verkeerd type.');
    await expect(reject(await canvas(10, 10).gif().toBuffer())).rejects.toThrow('Verkeerd type.');
    await expect(reject(await canvas(10, 10).png().toBuffer(), { formats: ['jpeg'] })).rejects.toThrow('Verkeerd type.');
    const png = await canvas(10, 10).png().toBuffer();
    await expect(reject(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), png]))).rejects.toThrow('Verkeerd type.');
    const err = await reject(await canvas(1200, 1000).png().toBuffer()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageRejected);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 400, message: 'Te veel pixels.' });
    expect(sniffImage(await canvas(2, 2).webp().toBuffer())).toBe('webp');
  });

  it('decodes at most two pictures at once per process', async () => {
    expect(imageSlots.limit).toBeGreaterThanOrEqual(1);
    expect(imageSlots.limit).toBeLessThanOrEqual(2);
    const png = await canvas(800, 800).png().toBuffer();
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, imageSlots.running)), 1);
    try {
      const all = Promise.all(Array.from({ length: 6 }, () => processImage(png, options)));
      expect(imageSlots.running + imageSlots.queued).toBe(6);
      await all;
    } finally {
      clearInterval(watch);
    }
    expect(most).toBeLessThanOrEqual(imageSlots.limit);
    expect([imageSlots.running, imageSlots.queued]).toEqual([0, 0]);
  });
});

describe('Semaphore', () => {
  it('runs at most `limit` at once, in arrival order, frees slots on failure, and refuses past maxWaiting', async () => {
    const slots = new Semaphore(2, 2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const job = (i: number, fail = false) =>
      slots.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        if (fail) throw new Error('kapot');
        return i;
      });
    const settling = Promise.allSettled([job(1, true), job(2), job(3), job(4)]);
    await expect(job(5)).rejects.toMatchObject({ status: 503 });
    expect([slots.running, slots.queued]).toEqual([2, 2]);
    while (releases.length) {
      releases.shift()!();
      await new Promise((r) => setImmediate(r));
    }
    const settled = await settling;
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(order).toEqual([1, 2, 3, 4]);
    expect(most).toBe(2);
    expect([slots.running, slots.queued]).toEqual([0, 0]);
  });
});

describe('sniffImage', () => {
  it('knows JPG, PNG and WEBP by their first bytes and nothing else', async () => {
    expect(sniffImage(await canvas(4, 4).jpeg().toBuffer())).toBe('jpeg');
    expect(sniffImage(await canvas(4, 4).png().toBuffer())).toBe('png');
    expect(sniffImage(await canvas(4, 4).webp().toBuffer())).toBe('webp');
    expect(sniffImage(await canvas(4, 4).gif().toBuffer())).toBeUndefined();
    expect(sniffImage(await canvas(4, 4).tiff().toBuffer())).toBeUndefined();
    expect(sniffImage(Buffer.from('%PDF-1.7'))).toBeUndefined();
    expect(sniffImage(Buffer.from([0xff, 0xd8]))).toBeUndefined();
    expect(sniffImage(Buffer.from('RIFF\0\0\0\0WAVE'))).toBeUndefined();
  });
});

describe('bounds for a request’s pictures (probe finding 3)', () => {
  it('gives up a turn that has not come by the deadline, leaving the queue as it was', async () => {
    const slots = new Semaphore(1);
    let release!: () => void;
    const holding = slots.run(() => new Promise<void>((r) => (release = r)));
    const late = () => new HttpError(503, 'Te laat.');
    const waiting = slots.run(async () => 'nooit', performance.now() + 50, late);
    await expect(waiting).rejects.toMatchObject({ status: 503, message: 'Te laat.' });
    expect(slots.queued).toBe(0);
    const next = slots.run(async () => 'daarna');
    release();
    await holding;
    expect(await next).toBe('daarna');
    expect(slots.running).toBe(0);
  });

  it('answers a picture not done by its deadline with ImageBusy at the deadline, not when the decode ends', async () => {
    const photo = await canvas(3000, 2000).jpeg().toBuffer();
    const started = performance.now();
    const refused = processImage(photo, { ...options, maxInputPixels: 10_000_000, budget: { deadline: performance.now() - 1, busy: 'Druk.' } });
    await expect(refused).rejects.toBeInstanceOf(ImageBusy);
    await expect(refused).rejects.toMatchObject({ status: 503, message: 'Druk.' });
    expect(performance.now() - started).toBeLessThan(1000);
    // In time, the same picture is processed.
    const done = await processImage(photo, { ...options, maxInputPixels: 10_000_000, budget: { deadline: performance.now() + 10_000, busy: 'Druk.' } });
    expect(done.width).toBe(400);
  });

  it('refuses at once what would not be done by the deadline, counting the work admitted before', async () => {
    const photo = await canvas(4000, 3000).jpeg().toBuffer();
    const budget = { deadline: performance.now() + 60_000, busy: 'Druk.' };
    const first = await admitImages([photo], budget);
    const tight = admitImages([photo], { deadline: performance.now() + 1, busy: 'Druk.' });
    await expect(tight).rejects.toMatchObject({ status: 503, message: 'Druk.' });
    await expect(tight).rejects.toHaveProperty('retryAfter', expect.any(Number));
    first.release();
    first.release(); // once only
    (await admitImages([photo], budget)).release();
  });

  it('lets a key have at most `limit` jobs at once', () => {
    const jobs = new PerKeyLimit(1);
    const leave = jobs.enter('lid-1');
    expect(leave).toBeDefined();
    expect(jobs.enter('lid-1')).toBeUndefined();
    const other = jobs.enter('lid-2');
    expect(other).toBeDefined();
    leave!();
    leave!();
    const again = jobs.enter('lid-1');
    expect(again).toBeDefined();
    expect(jobs.enter('lid-1')).toBeUndefined();
    again!();
    other!();
  });
});
