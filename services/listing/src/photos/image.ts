import type { UploadedFile } from '@ruilplein/service-kit';
import { LISTING_MESSAGES } from '@ruilplein/contracts';
import { processImage, type ProcessedImage } from '@ruilplein/service-kit/upload';
import sharp from 'sharp';

/** Longest side of a stored photo: the detail page's carousel and full-screen view. */
export const PHOTO_MAX_SIDE = 1600;
/** Longest side of the card-sized copy (cards are at most ~240 CSS px wide, twice for sharp screens). */
export const THUMBNAIL_SIDE = 480;
/** A file within the size limit may still unpack into gigabytes of pixels; decoding stops above this. */
const MAX_INPUT_PIXELS = 40_000_000;

export interface ProcessedPhoto extends ProcessedImage {
  thumbnail: Buffer;
}

/**
 * Checks each upload by its content (JPG, PNG or WEBP that really decodes) and re-encodes it as a
 * WebP of at most PHOTO_MAX_SIDE pixels without metadata (EXIF, GPS), with a THUMBNAIL_SIDE copy;
 * the first one also gets the tiny placeholder. One after another: the kit bounds decoding per
 * process anyway, and a refused photo stops the rest. Nothing is stored here.
 */
export async function processPhotos(files: readonly Pick<UploadedFile, 'data'>[]): Promise<ProcessedPhoto[]> {
  const photos: ProcessedPhoto[] = [];
  for (const [i, file] of files.entries()) {
    const image = await processImage(file.data, {
      maxSide: PHOTO_MAX_SIDE,
      maxInputPixels: MAX_INPUT_PIXELS,
      thumbnail: THUMBNAIL_SIDE,
      placeholder: i === 0,
      messages: { wrongType: LISTING_MESSAGES.photoNotImage, tooManyPixels: LISTING_MESSAGES.photoTooManyPixels },
    });
    photos.push({ ...image, thumbnail: image.thumbnail! });
  }
  return photos;
}

/**
 * The default crate of beer every member may offer (DEFAULT_CRATE): a drawing of a crate with
 * bottles, made here so no picture has to be fetched or committed. 640 × 480, WebP.
 */
export function renderCrate(): Promise<Buffer> {
  const bottles = [0, 1, 2, 3, 4, 5]
    .map((i) => {
      const x = 150 + i * 62;
      return `<rect x="${x}" y="118" width="34" height="96" rx="12" fill="#7c3f12"/>
        <rect x="${x + 9}" y="84" width="16" height="44" rx="5" fill="#7c3f12"/>
        <rect x="${x + 7}" y="78" width="20" height="10" rx="3" fill="#d4a017"/>`;
    })
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480" viewBox="0 0 640 480">
    <rect width="640" height="480" fill="#fdf3d8"/>
    ${bottles}
    <rect x="120" y="190" width="400" height="210" rx="18" fill="#c2410c"/>
    <rect x="120" y="190" width="400" height="26" rx="10" fill="#9a3412"/>
    <rect x="270" y="228" width="100" height="34" rx="17" fill="#7c2d12"/>
    <rect x="160" y="280" width="320" height="84" rx="10" fill="#fff7ed"/>
    <text x="320" y="337" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="44" font-weight="700" fill="#7c2d12">KRAT BIER</text>
  </svg>`;
  return sharp(Buffer.from(svg)).webp({ quality: 85 }).toBuffer();
}
