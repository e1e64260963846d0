import { sniffImage } from '@ruilplein/service-kit/upload';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AVATAR_SIZE, processAvatar, renderDefaultAvatar } from '../src/avatars/image.ts';

const WRONG_TYPE = 'Alleen JPG, PNG of WEBP afbeeldingen zijn toegestaan.';

const canvas = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 20 } } });

describe('processAvatar', () => {
  it('re-encodes a large JPG as a WebP of at most 512 px a side, without EXIF, GPS or ICC data', async () => {
    const photo = await canvas(2000, 1000)
      .withExif({ IFD0: { Copyright: 'Geheime eigenaar', Make: 'Camera' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 5/1 0/1' } })
      .withIccProfile('p3')
      .jpeg()
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();

    const out = await processAvatar(photo);
    const meta = await sharp(out).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: AVATAR_SIZE, height: AVATAR_SIZE / 2 });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(out.includes(Buffer.from('Geheime eigenaar'))).toBe(false);
  });

  it('turns a photo upright by its EXIF orientation and does not enlarge small pictures', async () => {
    const sideways = await canvas(120, 60).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    expect(await sharp(await processAvatar(sideways)).metadata()).toMatchObject({ width: 60, height: 120 });
    const small = await canvas(40, 30).png().toBuffer();
    expect(await sharp(await processAvatar(small)).metadata()).toMatchObject({ format: 'webp', width: 40, height: 30 });
    const webp = await canvas(800, 800).webp().toBuffer();
    expect(await sharp(await processAvatar(webp)).metadata()).toMatchObject({ width: AVATAR_SIZE, height: AVATAR_SIZE });
  });

  it('refuses what is not really a JPG, PNG or WEBP, whatever its name', async () => {
    const gif = await canvas(10, 10).gif().toBuffer();
    await expect(processAvatar(gif)).rejects.toThrow(WRONG_TYPE);
    await expect(processAvatar(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).rejects.toThrow(WRONG_TYPE);
    await expect(processAvatar(Buffer.from('gewoon tekst, hernoemd naar foto.jpg'))).rejects.toThrow(WRONG_TYPE);
    // The right first bytes in front of something else.
    const fakePng = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('geen png')]);
    await expect(processAvatar(fakePng)).rejects.toThrow(WRONG_TYPE);
    // A JPEG header with a PNG behind it is neither.
    const png = await canvas(10, 10).png().toBuffer();
    await expect(processAvatar(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), png]))).rejects.toThrow(WRONG_TYPE);
    const jpg = await canvas(300, 300).jpeg().toBuffer();
    await expect(processAvatar(jpg.subarray(0, jpg.length / 2))).rejects.toThrow(WRONG_TYPE);
  });

  it('refuses a small file that unpacks into too many pixels', async () => {
    const bomb = await canvas(8000, 6000).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024);
    await expect(processAvatar(bomb)).rejects.toThrow('De profielfoto heeft te veel pixels (maximaal 40 megapixel).');
  });
});

describe('renderDefaultAvatar', () => {
  it('draws a square JPG, as its name default_avatar.jpg promises', async () => {
    const jpg = await renderDefaultAvatar();
    expect(sniffImage(jpg)).toBe('jpeg');
    expect(await sharp(jpg).metadata()).toMatchObject({ format: 'jpeg', width: 256, height: 256 });
  });
});
