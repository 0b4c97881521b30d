import { createHash } from 'node:crypto';
import type { LogoType } from '@rr/contracts/sites';
import { inspectImage } from '../rooms/image.ts';

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

/**
 * What an uploaded site logo is, by its content (docs/product.md#sites): PNG, JPEG or WebP, as a
 * room image is inspected (inspectImage: magic bytes, a readable header, at most
 * MAX_IMAGE_PIXELS). SVG is refused: a logo is shown to every visitor, and an SVG may hold
 * scripts.
 */
export async function inspectSiteLogo(bytes: Buffer): Promise<SiteLogo> {
  const { contentType } = await inspectImage(
    bytes,
    SIZE_TYPE,
    'Only PNG, JPEG or WebP images are accepted',
  );
  return { contentType, sha256: createHash('sha256').update(bytes).digest('hex') };
}
