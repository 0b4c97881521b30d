import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { Problem } from '@rr/platform';

/** The limits of a room image (JPEG or PNG, at most 0.5 MB: docs/product.md#validation; see @rr/contracts). */
export { MAX_IMAGE_BYTES } from '@rr/contracts';
/**
 * At most 40 megapixels (width x height): a browser decodes an image to 4 bytes a pixel, and a
 * few hundred bytes of PNG can claim 20000 x 20000 (1.6 GB decoded on every visitor's device).
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

export interface RoomImage {
  contentType: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
}

/**
 * What an uploaded image is, by its content: one of the `accepted` types (by media type, each with
 * the name image-size gives it) by magic bytes (file-type), width and height from its header
 * (image-size; nothing is decoded). Throws a 400 Problem for another type
 * (`image__invalid_type`, with `refusedText`), an unreadable or truncated header
 * (`image__invalid`) and too many pixels (`image__too_many_pixels`).
 */
export async function inspectImage<T extends string>(
  bytes: Buffer,
  accepted: Readonly<Record<T, string>>,
  refusedText: string,
): Promise<{ contentType: T; width: number; height: number }> {
  const type = await fileTypeFromBuffer(bytes);
  const mime: string | undefined = type?.mime;
  const isAccepted = (m: string | undefined): m is T =>
    m !== undefined && Object.hasOwn(accepted, m);
  if (!isAccepted(mime)) throw new Problem(400, 'image__invalid_type', refusedText);
  const size = readSize(bytes);
  if (!size || size.type !== accepted[mime])
    throw new Problem(400, 'image__invalid', 'The image cannot be read (damaged or cut off)');
  if (size.width * size.height > MAX_IMAGE_PIXELS)
    throw new Problem(
      400,
      'image__too_many_pixels',
      `The image has more than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels (${size.width} x ${size.height})`,
    );
  return { contentType: mime, width: size.width, height: size.height };
}

/** What an uploaded room image is: JPEG or PNG (inspectImage). */
export const inspectRoomImage = (bytes: Buffer): Promise<RoomImage> =>
  inspectImage(
    bytes,
    { 'image/jpeg': 'jpg', 'image/png': 'png' },
    'Only JPEG or PNG images are accepted',
  );

/** Width and height from the header, or null when it is missing, cut off or makes no sense. */
export function readSize(bytes: Buffer): { type: string; width: number; height: number } | null {
  try {
    // A copy of exactly the upload: image-size reads through a DataView over the view's whole
    // ArrayBuffer, so on a Buffer from Node's shared pool a cut-off header read the bytes after
    // it (another request's) instead of failing.
    const { type, width, height } = imageSize(new Uint8Array(bytes));
    if (type === undefined || !isDimension(width) || !isDimension(height)) return null;
    return { type, width, height };
  } catch {
    // image-size throws (TypeError, RangeError) on headers it cannot read.
    return null;
  }
}

const isDimension = (n: number | undefined): n is number =>
  n !== undefined && Number.isSafeInteger(n) && n > 0;

export interface SeatPlanImageType {
  contentType: 'image/png' | 'image/jpeg' | 'image/svg+xml';
  width?: number;
  height?: number;
}

const TYPE_OF_EXTENSION: Readonly<Record<string, SeatPlanImageType['contentType']>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  svg: 'image/svg+xml',
};

/**
 * What an uploaded seat plan image is (docs/product.md#seat-plans): PNG or JPEG by magic bytes,
 * as a room image (inspectRoomImage, its pixel limit too), or SVG: UTF-8 XML whose root element
 * is `svg`. The name's extension, when it names one of them, must agree with the content (a PNG
 * named `plan.svg` is refused). Throws a 400 Problem (`image__invalid_type`, `image__invalid`,
 * `image__too_many_pixels`).
 */
export async function inspectSeatPlanImage(
  bytes: Buffer,
  filename: string,
): Promise<SeatPlanImageType> {
  const named = TYPE_OF_EXTENSION[/\.(\w+)$/.exec(filename)?.[1]?.toLowerCase() ?? ''];
  const type = await fileTypeFromBuffer(bytes);
  let found: SeatPlanImageType | null = null;
  if (type?.mime === 'image/png' || type?.mime === 'image/jpeg')
    found = await inspectRoomImage(bytes);
  else if (!type || type.mime === 'application/xml') found = svgImage(bytes);
  if (!found || (named && named !== found.contentType))
    throw new Problem(
      400,
      'image__invalid_type',
      'Only PNG, JPEG or SVG images are accepted, named as what they are',
    );
  return found;
}

/** An SVG document's type and, when it states them, its width and height; null for anything else. */
function svgImage(bytes: Buffer): SeatPlanImageType | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  if (!hasSvgRoot(text)) return null;
  const size = readSize(bytes);
  return size?.type === 'svg'
    ? { contentType: 'image/svg+xml', width: size.width, height: size.height }
    : { contentType: 'image/svg+xml' };
}

/**
 * Whether the text is an XML document whose root element is `svg`: only an XML declaration,
 * processing instructions, comments, blanks and an svg DOCTYPE without internal subset (no
 * entities of its own) before the root, which closes at the end (`</svg>` or `<svg …/>`) with only
 * comments and blanks after it.
 */
export function hasSvgRoot(text: string): boolean {
  let at = 0;
  for (;;) {
    at = skipBlanks(text, at);
    if (text.startsWith('<?', at)) at = after(text, '?>', at);
    else if (text.startsWith('<!--', at)) at = after(text, '-->', at + 4);
    else if (text.startsWith('<!DOCTYPE', at)) {
      const end = text.indexOf('>', at);
      const doctype = end < 0 ? '' : text.slice(at, end);
      if (!/^<!DOCTYPE\s+svg[\s>]/.test(doctype + '>') || doctype.includes('[')) return false;
      at = end + 1;
    } else break;
    if (at < 0) return false;
  }
  if (!/^<svg[\s/>]/.test(text.slice(at, at + 5))) return false;
  let tail = text.trimEnd();
  while (tail.endsWith('-->')) {
    const start = tail.lastIndexOf('<!--');
    if (start < at) return false;
    tail = tail.slice(0, start).trimEnd();
  }
  if (/<\/svg\s*>$/.test(tail)) return true;
  // A root without content: `<svg …/>` and nothing else.
  return tail.endsWith('/>') && !tail.slice(at + 1).includes('<');
}

const skipBlanks = (text: string, at: number) => {
  while (at < text.length && /\s/.test(text[at]!)) at++;
  return at;
};
const after = (text: string, end: string, from: number) => {
  const i = text.indexOf(end, from);
  return i < 0 ? -1 : i + end.length;
};
