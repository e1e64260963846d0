// Photos to list items with: real JPEGs as a phone app would send after shrinking them (640×480,
// some texture so they do not compress to nothing), made once per run.
import sharp from 'sharp';
import type { Rng } from './mix.ts';

export interface Photo {
  name: string;
  data: Uint8Array;
}

export async function makePhotos(count: number, rng: Rng): Promise<Photo[]> {
  const width = 640;
  const height = 480;
  const photos: Photo[] = [];
  for (let n = 0; n < count; n++) {
    const base = [rng() * 200, rng() * 200, rng() * 200];
    const raw = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const at = (y * width + x) * 3;
        const shade = ((x + y) / (width + height)) * 55;
        for (let c = 0; c < 3; c++) raw[at + c] = Math.min(255, base[c]! + shade + rng() * 24);
      }
    }
    const data = await sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
    photos.push({ name: `foto-${n + 1}.jpg`, data: new Uint8Array(data) });
  }
  return photos;
}
