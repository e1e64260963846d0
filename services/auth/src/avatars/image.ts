import { USER_MESSAGES } from '@ruilplein/contracts';
import sharp, { type Metadata } from 'sharp';

/** Longest side of a stored avatar: shown at most a few hundred pixels wide. */
export const AVATAR_SIZE = 512;
/** A 5 MB file may still unpack into gigabytes of pixels; decoding stops above this (as the message says). */
const MAX_INPUT_PIXELS = 40_000_000;

export class AvatarRejected extends Error {}

type Format = 'jpeg' | 'png' | 'webp';

/** What the first bytes say the content is; the name and declared type of an upload are ignored. */
export function sniffImage(data: Buffer): Format | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/**
 * Checks that an upload is a JPG, PNG or WEBP that really decodes, and re-encodes it as a WebP of
 * at most AVATAR_SIZE pixels a side, turned upright by its EXIF orientation and with every piece
 * of metadata (EXIF, GPS, ICC, XMP) left behind.
 */
export async function processAvatar(data: Buffer): Promise<Buffer> {
  const format = sniffImage(data);
  if (!format) throw new AvatarRejected(USER_MESSAGES.pictureWrongType);
  const image = sharp(data, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, animated: false });
  let decoded: Metadata;
  try {
    decoded = await image.metadata();
  } catch (err) {
    throw new AvatarRejected(/pixel limit/i.test(String(err)) ? USER_MESSAGES.pictureTooManyPixels : USER_MESSAGES.pictureWrongType);
  }
  // A PNG header in front of something else is not a PNG.
  if (decoded.format !== format) throw new AvatarRejected(USER_MESSAGES.pictureWrongType);
  try {
    return await image
      .autoOrient()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82, effort: 4 })
      .toBuffer();
  } catch (err) {
    throw new AvatarRejected(/pixel limit/i.test(String(err)) ? USER_MESSAGES.pictureTooManyPixels : USER_MESSAGES.pictureWrongType);
  }
}

/** The picture of members without one: a grey silhouette, drawn once per process. */
export function renderDefaultAvatar(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
    <rect width="256" height="256" fill="#e5e7eb"/>
    <circle cx="128" cy="100" r="48" fill="#9ca3af"/>
    <path d="M40 240c0-52 40-84 88-84s88 32 88 84z" fill="#9ca3af"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
