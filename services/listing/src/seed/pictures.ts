import sharp from 'sharp';

/** Simple drawings (white on the background colour), one per kind of thing, in a 200 × 200 box. */
const SHAPES: Record<string, string> = {
  bike: `<circle cx="50" cy="130" r="38" fill="none" stroke="#fff" stroke-width="10"/><circle cx="150" cy="130" r="38" fill="none" stroke="#fff" stroke-width="10"/>
    <path d="M50 130 L85 70 L130 70 L150 130 M85 70 L100 130 L130 70 M75 55 h25" fill="none" stroke="#fff" stroke-width="10" stroke-linejoin="round"/>`,
  book: `<rect x="45" y="30" width="110" height="140" rx="8" fill="#fff"/><rect x="45" y="30" width="18" height="140" fill="#000" opacity=".15"/>
    <rect x="78" y="60" width="60" height="10" rx="5" fill="#000" opacity=".2"/><rect x="78" y="82" width="45" height="10" rx="5" fill="#000" opacity=".2"/>`,
  tool: `<path d="M140 30 a35 35 0 0 0 -30 50 L40 150 a14 14 0 0 0 20 20 L130 100 a35 35 0 0 0 50 -30 l-22 12 -18 -10 -2 -20 z" fill="#fff"/>`,
  music: `<path d="M80 40 L160 25 V135 a22 18 0 1 1 -12 -16 V62 L92 73 V150 a22 18 0 1 1 -12 -16 z" fill="#fff"/>`,
  camera: `<rect x="25" y="60" width="150" height="100" rx="14" fill="#fff"/><rect x="70" y="42" width="60" height="26" rx="6" fill="#fff"/>
    <circle cx="100" cy="110" r="32" fill="#000" opacity=".25"/><circle cx="100" cy="110" r="18" fill="#fff"/>`,
  heart: `<path d="M100 170 L35 105 a38 38 0 0 1 65 -50 a38 38 0 0 1 65 50 z" fill="#fff"/>`,
  plant: `<path d="M100 170 V90" stroke="#fff" stroke-width="10"/><path d="M100 100 C60 100 40 70 45 40 C80 40 100 65 100 100 z M100 90 C140 90 160 60 155 30 C120 30 100 55 100 90 z" fill="#fff"/>
    <rect x="65" y="150" width="70" height="35" rx="6" fill="#fff"/>`,
  sofa: `<rect x="35" y="60" width="130" height="60" rx="14" fill="#fff"/><rect x="20" y="95" width="160" height="50" rx="14" fill="#fff"/>
    <rect x="30" y="145" width="14" height="25" fill="#fff"/><rect x="156" y="145" width="14" height="25" fill="#fff"/>`,
  shirt: `<path d="M70 30 L30 55 L45 90 L62 82 V170 H138 V82 L155 90 L170 55 L130 30 a30 20 0 0 1 -60 0 z" fill="#fff"/>`,
  game: `<rect x="30" y="30" width="65" height="65" rx="10" fill="#fff"/><rect x="105" y="30" width="65" height="65" rx="10" fill="#fff" opacity=".8"/>
    <rect x="30" y="105" width="65" height="65" rx="10" fill="#fff" opacity=".8"/><rect x="105" y="105" width="65" height="65" rx="10" fill="#fff"/>`,
  watch: `<rect x="75" y="20" width="50" height="160" rx="12" fill="#fff" opacity=".7"/><circle cx="100" cy="100" r="48" fill="#fff"/>
    <path d="M100 70 V100 L120 112" stroke="#000" stroke-opacity=".35" stroke-width="8" fill="none" stroke-linecap="round"/>`,
  truck: `<rect x="15" y="60" width="110" height="80" rx="6" fill="#fff"/><path d="M125 85 H160 L185 110 V140 H125 z" fill="#fff"/>
    <circle cx="55" cy="150" r="18" fill="#fff" stroke="#000" stroke-opacity=".25" stroke-width="6"/><circle cx="150" cy="150" r="18" fill="#fff" stroke="#000" stroke-opacity=".25" stroke-width="6"/>`,
  lesson: `<path d="M100 40 L185 80 L100 120 L15 80 z" fill="#fff"/><path d="M55 100 V140 C75 160 125 160 145 140 V100 L100 122 z" fill="#fff" opacity=".85"/>`,
  paw: `<ellipse cx="100" cy="130" rx="40" ry="32" fill="#fff"/><circle cx="55" cy="85" r="16" fill="#fff"/><circle cx="85" cy="60" r="16" fill="#fff"/>
    <circle cx="118" cy="60" r="16" fill="#fff"/><circle cx="148" cy="85" r="16" fill="#fff"/>`,
  box: `<path d="M100 25 L175 60 V140 L100 175 L25 140 V60 z" fill="#fff"/><path d="M25 60 L100 95 L175 60 M100 95 V175" stroke="#000" stroke-opacity=".2" stroke-width="6" fill="none"/>`,
};
export type PictureShape = keyof typeof SHAPES;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Splits a title over at most two lines of about `width` characters. */
function lines(title: string, width = 26): string[] {
  const words = title.split(/\s+/);
  const out = [''];
  for (const word of words) {
    const line = out.at(-1)!;
    if (line && (line + ' ' + word).length > width) {
      if (out.length === 2) {
        out[1] = `${out[1]}…`;
        break;
      }
      out.push(word);
    } else out[out.length - 1] = line ? `${line} ${word}` : word;
  }
  return out;
}

/**
 * A demo listing’s picture: a coloured background, a drawing and the title, as PNG (800 × 600).
 * Drawn by the project itself; it goes through the same upload pipeline as a member's photo.
 */
export function renderDemoPicture(title: string, color: string, shape: PictureShape, variant = 0): Promise<Buffer> {
  const titleLines = lines(title);
  const text = titleLines
    .map((line, i, all) => `<text x="600" y="${790 - (all.length - 1 - i) * 66}" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="56" font-weight="700" fill="#1f2937">${escape(line)}</text>`)
    .join('');
  // A second photo of the same listing: the drawing elsewhere, the background turned a little.
  const [x, y, scale] = variant ? [620, 80, 2.4] : [360, 90, 2.4];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 1200 900">
    <defs><linearGradient id="g" x1="0" y1="0" x2="${variant ? 0 : 1}" y2="1"><stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="${color}" stop-opacity=".7"/></linearGradient></defs>
    <rect width="1200" height="900" fill="#fff"/><rect width="1200" height="900" fill="url(#g)"/>
    <circle cx="${variant ? 200 : 1050}" cy="${variant ? 160 : 140}" r="120" fill="#fff" opacity=".15"/>
    <g transform="translate(${x} ${y}) scale(${scale})">${SHAPES[shape]}</g>
    <rect x="0" y="${titleLines.length === 2 ? 650 : 700}" width="1200" height="250" fill="#fff" opacity=".88"/>
    ${text}
  </svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 1 }).toBuffer();
}
