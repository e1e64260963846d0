import type { UploadedFile } from '@ruilplein/service-kit';
import { LISTING_MESSAGES, LISTING_PHOTO_BUDGET_MS, LISTING_PHOTO_JOBS_PER_MEMBER, LISTING_PHOTO_RETRY_SECONDS } from '@ruilplein/contracts';
import { admitImages, ImageBusy, PerKeyLimit, processImage, type ProcessedImage } from '@ruilplein/service-kit/upload';
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

/** Creates and edits with photos in progress per member, in this process. */
const memberJobs = new PerKeyLimit(LISTING_PHOTO_JOBS_PER_MEMBER);

interface PhotoJob {
  /** The member whose request it is: one job of theirs at a time (LISTING_PHOTO_JOBS_PER_MEMBER). */
  memberId: string;
  /** performance.now() when the request reached its handler: the budget counts from there. */
  startedAt: number;
}

/**
 * Checks each upload by its content (JPG, PNG or WEBP that really decodes) and re-encodes it as a
 * WebP of at most PHOTO_MAX_SIDE pixels without metadata (EXIF, GPS), with a THUMBNAIL_SIDE copy;
 * the first one also gets the tiny placeholder. All queued at once: the kit bounds decoding per
 * process, and a refused photo refuses the request. Nothing is stored here.
 *
 * With a `job` (a member's create or edit) the work is bounded so the request is answered before
 * the gateway's timeout: a member's second job at once is 429; photos that would not, or did not,
 * get done within LISTING_PHOTO_BUDGET_MS are 503 (ImageBusy, with Retry-After). The caller checks
 * `checkPhotoTime` again right before it writes anything.
 */
export async function processPhotos(files: readonly Pick<UploadedFile, 'data'>[], job?: PhotoJob): Promise<ProcessedPhoto[]> {
  const budget = job && { deadline: job.startedAt + LISTING_PHOTO_BUDGET_MS, busy: LISTING_MESSAGES.photosBusy };
  const leave = job && memberJobs.enter(job.memberId);
  if (job && !leave) throw new ImageBusy(429, LISTING_MESSAGES.photosBusyMember, LISTING_PHOTO_RETRY_SECONDS);
  try {
    const admitted = budget && (await admitImages(files.map((f) => f.data), budget));
    try {
      // All at once: the kit's slots decide how many run, so one request's photos use every slot.
      const images = await Promise.all(
        files.map((file, i) =>
          processImage(file.data, {
            maxSide: PHOTO_MAX_SIDE,
            maxInputPixels: MAX_INPUT_PIXELS,
            thumbnail: THUMBNAIL_SIDE,
            placeholder: i === 0,
            messages: { wrongType: LISTING_MESSAGES.photoNotImage, tooManyPixels: LISTING_MESSAGES.photoTooManyPixels },
            ...(budget && { budget }),
          }),
        ),
      );
      return images.map((image) => ({ ...image, thumbnail: image.thumbnail! }));
    } finally {
      admitted?.release();
    }
  } finally {
    leave?.();
  }
}

/** A job whose photo budget is spent is refused before anything is written: the gateway may have given up. */
export function checkPhotoTime(job: PhotoJob): void {
  if (performance.now() > job.startedAt + LISTING_PHOTO_BUDGET_MS) throw new ImageBusy(503, LISTING_MESSAGES.photosBusy, LISTING_PHOTO_RETRY_SECONDS);
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
