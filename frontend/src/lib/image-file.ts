/** Room image upload limits (spec sections 5 and 9). */
export const MAX_IMAGE_BYTES = 512 * 1024;
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/x-png'] as const;
/** Value of the file input's accept attribute. */
export const IMAGE_ACCEPT = 'image/jpeg,image/x-png,image/png';

export type ImageFileError = 'image-required' | 'image-type' | 'image-size';

export interface FileLike {
  readonly name: string;
  readonly type: string;
  readonly size: number;
}

function hasImageType(file: FileLike): boolean {
  if (file.type !== '') return (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type);
  // Some systems report no type; fall back to the file name.
  return /\.(jpe?g|png)$/i.test(file.name);
}

/** Checks a chosen image before upload; `required` is false when only the alt text changes. */
export function checkImageFile(
  file: FileLike | null | undefined,
  options: { readonly required: boolean },
): ImageFileError | null {
  if (!file) return options.required ? 'image-required' : null;
  if (!hasImageType(file)) return 'image-type';
  if (file.size > MAX_IMAGE_BYTES) return 'image-size';
  return null;
}
