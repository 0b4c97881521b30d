import { describe, expect, it } from 'vitest';
import { checkImageFile, MAX_IMAGE_BYTES } from './image-file';

const file = (name: string, type: string, size = 1000) => ({ name, type, size });

describe('checkImageFile', () => {
  it('requires a file only when asked to', () => {
    expect(checkImageFile(null, { required: true })).toBe('image-required');
    expect(checkImageFile(undefined, { required: false })).toBeNull();
  });

  it.each([
    ['photo.jpg', 'image/jpeg'],
    ['photo.png', 'image/png'],
    ['photo.png', 'image/x-png'],
    ['photo.JPEG', ''],
  ])('accepts %s (%s)', (name, type) => {
    expect(checkImageFile(file(name, type), { required: true })).toBeNull();
  });

  it.each([
    ['photo.gif', 'image/gif'],
    ['photo.webp', 'image/webp'],
    ['doc.pdf', 'application/pdf'],
    ['photo.jpg', 'image/svg+xml'],
    ['noextension', ''],
  ])('rejects %s (%s)', (name, type) => {
    expect(checkImageFile(file(name, type), { required: true })).toBe('image-type');
  });

  it('accepts exactly 0.5 MB and rejects one byte more', () => {
    expect(
      checkImageFile(file('a.jpg', 'image/jpeg', MAX_IMAGE_BYTES), { required: true }),
    ).toBeNull();
    expect(
      checkImageFile(file('a.jpg', 'image/jpeg', MAX_IMAGE_BYTES + 1), { required: true }),
    ).toBe('image-size');
  });
});
