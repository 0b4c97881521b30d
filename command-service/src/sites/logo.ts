import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { LOGO_TYPES, type LogoType } from '@rr/contracts/sites';
import { Problem } from '@rr/platform';
import { MAX_IMAGE_PIXELS, readSize } from '../rooms/image.ts';

/** What image-size calls each logo type. */
const SIZE_TYPE: Readonly<Record<LogoType, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

export interface SiteLogo {
  contentType: LogoType;
  sha256: string;
}

const isLogoType = (mime: string | undefined): mime is LogoType =>
  (LOGO_TYPES as readonly string[]).includes(mime ?? '');

/**
 * What an uploaded site logo is, by its content (docs/product.md#sites): PNG, JPEG or WebP by
 * magic bytes (file-type), its header readable and at most MAX_IMAGE_PIXELS, as a room image's
 * (inspectRoomImage). SVG is refused: a logo is shown to every visitor, and an SVG may hold
 * scripts. Throws a 400 Problem (`image__invalid_type`, `image__invalid`,
 * `image__too_many_pixels`).
 */
export async function inspectSiteLogo(bytes: Buffer): Promise<SiteLogo> {
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !isLogoType(type.mime))
    throw new Problem(400, 'image__invalid_type', 'Only PNG, JPEG or WebP images are accepted');
  const size = readSize(bytes);
  if (!size || size.type !== SIZE_TYPE[type.mime])
    throw new Problem(400, 'image__invalid', 'The image cannot be read (damaged or cut off)');
  if (size.width * size.height > MAX_IMAGE_PIXELS)
    throw new Problem(
      400,
      'image__too_many_pixels',
      `The image has more than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels (${size.width} x ${size.height})`,
    );
  return { contentType: type.mime, sha256: createHash('sha256').update(bytes).digest('hex') };
}
