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
 * What an uploaded room image is, by its content: JPEG or PNG by magic bytes (file-type), width
 * and height from the PNG IHDR or the JPEG frame header (image-size; nothing is decoded). Throws a
 * 400 Problem for another type (`image__invalid_type`), an unreadable or truncated header
 * (`image__invalid`) and too many pixels (`image__too_many_pixels`).
 */
export async function inspectRoomImage(bytes: Buffer): Promise<RoomImage> {
  const type = await fileTypeFromBuffer(bytes);
  if (!type || (type.mime !== 'image/jpeg' && type.mime !== 'image/png'))
    throw new Problem(400, 'image__invalid_type', 'Only JPEG or PNG images are accepted');
  const size = readSize(bytes);
  const expected = type.mime === 'image/png' ? 'png' : 'jpg';
  if (!size || size.type !== expected)
    throw new Problem(400, 'image__invalid', 'The image cannot be read (damaged or cut off)');
  if (size.width * size.height > MAX_IMAGE_PIXELS)
    throw new Problem(
      400,
      'image__too_many_pixels',
      `The image has more than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels (${size.width} x ${size.height})`,
    );
  return { contentType: type.mime, width: size.width, height: size.height };
}

/** Width and height from the header, or null when it is missing, cut off or makes no sense. */
function readSize(bytes: Buffer): { type: string; width: number; height: number } | null {
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
