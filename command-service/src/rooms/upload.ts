import multer from 'multer';
import type { Request, Response } from 'express';
import { Problem, problems } from '@rr/platform';

/**
 * Reads a multipart upload of one image (field `image`, or the one named) and a few short text
 * fields into memory: larger than `maxBytes` is `image__too_large` (400, with `tooLarge` as its
 * title), any other malformed upload `validation__error`.
 */
export function imageUpload(maxBytes: number, tooLarge: string, field = 'image') {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: 1, fields: 5, fieldSize: 2000 },
  });
  return (req: Request, res: Response) =>
    new Promise<void>((resolve, reject) => {
      if (!req.is('multipart/form-data'))
        return reject(problems.badRequest('validation__error', 'Send multipart/form-data'));
      upload.single(field)(req, res, (err: unknown) => {
        if (!err) return resolve();
        const code = (err as { code?: string }).code;
        if (code === 'LIMIT_FILE_SIZE')
          return reject(new Problem(400, 'image__too_large', tooLarge));
        reject(problems.badRequest('validation__error', 'The upload is not valid'));
      });
    });
}
