import { USER_MESSAGES } from '@ruilplein/contracts';
import { processImage } from '@ruilplein/service-kit/upload';
import sharp from 'sharp';

/** Longest side of a stored avatar: shown at most a few hundred pixels wide. */
export const AVATAR_SIZE = 512;
/** A 5 MB file may still unpack into gigabytes of pixels; decoding stops above this (as the message says). */
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * Checks that an upload (a refusal is the kit's ImageRejected, with the Dutch message) is a JPG, PNG or WEBP that really decodes, and re-encodes it as a WebP of
 * at most AVATAR_SIZE pixels a side without any metadata, through the kit's bounded pipeline.
 */
export async function processAvatar(data: Buffer): Promise<Buffer> {
  const image = await processImage(data, {
    maxSide: AVATAR_SIZE,
    maxInputPixels: MAX_INPUT_PIXELS,
    messages: { wrongType: USER_MESSAGES.pictureWrongType, tooManyPixels: USER_MESSAGES.pictureTooManyPixels },
  });
  return image.data;
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
