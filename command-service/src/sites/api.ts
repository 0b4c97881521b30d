import { randomUUID } from 'node:crypto';
import {
  openBoundsOf,
  SiteInput,
  SiteHoursInput,
  MAX_LOGO_BYTES,
  siteHoursOf,
} from '@rr/contracts';
import { defineRoute, fromContract, problems, z, type RouteDef } from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { imageUpload } from '../rooms/upload.ts';
import { inspectSiteLogo } from './logo.ts';
import { runSiteCommand } from './stream.ts';

// A site (docs/product.md#sites): the rules are the contract's, shared with the browser.
const SiteBody = fromContract(SiteInput).openapi('SiteInput');
const SiteUpdateBody = SiteBody.extend({ version: z.number().int().min(0) }).openapi(
  'SiteUpdateInput',
);
const IdParams = z.object({ id: z.uuid('Not a valid id') });
const Written = z
  .object({ id: z.uuid(), slug: z.string(), version: z.number(), position: z.string() })
  .openapi('SiteWritten');
const PositionOnly = z.object({ position: z.string() }).openapi('SitePosition');
const HoursBody = fromContract(SiteHoursInput).openapi('SiteHoursInput');

/**
 * A site's details as its events hold them: empty optional texts left out, and the rule for
 * members of the university only when on (the affiliations once each).
 */
const details = (siteId: string, b: z.output<typeof SiteBody>) => ({
  siteId,
  name: b.name,
  ...(b.nameEn ? { nameEn: b.nameEn } : {}),
  slug: b.slug,
  contactEmail: b.contactEmail,
  ...(b.address ? { address: b.address } : {}),
  ...(b.phone ? { phone: b.phone } : {}),
  ...(b.mailSignature ? { mailSignature: b.mailSignature } : {}),
  ...(b.signInRequired ? { signInRequired: true } : {}),
  ...(b.allowedAffiliations?.length
    ? { allowedAffiliations: [...new Set(b.allowedAffiliations)] }
    : {}),
  // The booking window of its rooms that set none: each bound only when set.
  ...openBoundsOf(b),
});

export function siteCommandRoutes(deps: CommandDeps): RouteDef[] {
  return [...siteDetailRoutes(deps), ...siteHoursRoutes(deps), ...siteLogoRoutes(deps)];
}

function siteDetailRoutes(deps: CommandDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/admin/sites',
      summary: 'Create a site (a branch of the library) with its name, slug and contact address',
      tags: ['sites'],
      access: ['admin'],
      body: SiteBody,
      responses: {
        201: { description: 'Created', schema: Written },
        409: { description: 'site__slug_taken: another site has the slug' },
      },
      handler: async ({ body, user }) => {
        const written = await runSiteCommand(deps, actorOf(user), {
          type: 'CreateSite',
          data: details(randomUUID(), body),
        });
        return { status: 201, body: { ...written, slug: body.slug } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/admin/sites/{id}',
      summary:
        'Update a site (optimistic: version must be the current one; the first site starts at 0)',
      tags: ['sites'],
      access: ['admin'],
      sites: { path: { id: 'site' } },
      params: IdParams,
      body: SiteUpdateBody,
      responses: {
        200: { description: 'Updated', schema: Written },
        404: { description: 'No such site' },
        409: { description: 'Stale version, or site__slug_taken' },
      },
      handler: async ({ params, body, user }) => {
        const written = await runSiteCommand(deps, actorOf(user), {
          type: 'UpdateSite',
          data: { ...details(params.id, body), expectedVersion: body.version },
        });
        return { body: { ...written, slug: body.slug } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/sites/{id}',
      summary: 'Delete a site (refused while rooms belong to it, and for the first site)',
      tags: ['sites'],
      access: ['admin'],
      params: IdParams,
      responses: {
        200: { description: 'Deleted', schema: PositionOnly },
        404: { description: 'No such site' },
        409: { description: 'site__has_rooms, or site__first_site' },
      },
      handler: async ({ params, user }) => {
        const written = await runSiteCommand(deps, actorOf(user), {
          type: 'DeleteSite',
          data: { siteId: params.id },
        });
        return { body: { position: written.position } };
      },
    }),
  ];
}

/**
 * A site's opening hours (docs/product.md#sites), set all at once. Not by version: they are no
 * part of the details the site form's update names, and the last one set holds.
 */
function siteHoursRoutes(deps: CommandDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'put',
      path: '/admin/sites/{id}/hours',
      summary:
        "Set a site's opening hours: each weekday's ranges (at most 4, apart) and the dates with other hours (at most 366)",
      tags: ['sites'],
      access: ['admin'],
      sites: { path: { id: 'site' } },
      params: IdParams,
      body: HoursBody,
      responses: {
        200: { description: 'Set', schema: PositionOnly },
        404: { description: 'No such site' },
      },
      handler: async ({ params, body, user }) => {
        const written = await runSiteCommand(deps, actorOf(user), {
          type: 'SetSiteHours',
          data: { siteId: params.id, ...siteHoursOf(body) },
        });
        return { body: { position: written.position } };
      },
    }),
  ];
}

/** A site's logo (docs/product.md#sites): uploaded as multipart (field `logo`), or removed. */
function siteLogoRoutes(deps: CommandDeps): RouteDef[] {
  const parseUpload = imageUpload(MAX_LOGO_BYTES, 'The logo is larger than 512 KiB', 'logo');
  return [
    defineRoute({
      method: 'put',
      path: '/admin/sites/{id}/logo',
      summary:
        "Upload or replace a site's logo (PNG, JPEG or WebP by its content, at most 512 KiB)",
      tags: ['sites'],
      access: ['admin'],
      sites: { path: { id: 'site' } },
      params: IdParams,
      multipart: z.object({ logo: z.string().openapi({ format: 'binary' }) }),
      responses: {
        200: { description: 'Stored', schema: PositionOnly },
        400: { description: 'image__invalid_type, image__too_large, image__invalid' },
        404: { description: 'No such site' },
      },
      handler: async ({ params, req, res, user }) => {
        await parseUpload(req, res);
        const file = req.file;
        if (!file)
          throw problems.badRequest('validation__error', 'Send the logo as the field logo');
        const { contentType, sha256 } = await inspectSiteLogo(file.buffer);
        const written = await runSiteCommand(
          deps,
          actorOf(user),
          {
            type: 'SetSiteLogo',
            data: { siteId: params.id, logoId: randomUUID(), contentType, size: file.size, sha256 },
          },
          file.buffer,
        );
        return { body: { position: written.position } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/sites/{id}/logo',
      summary: "Remove a site's logo",
      tags: ['sites'],
      access: ['admin'],
      sites: { path: { id: 'site' } },
      params: IdParams,
      responses: {
        200: { description: 'Removed', schema: PositionOnly },
        404: { description: 'No such site' },
      },
      handler: async ({ params, user }) => {
        const written = await runSiteCommand(deps, actorOf(user), {
          type: 'RemoveSiteLogo',
          data: { siteId: params.id },
        });
        return { body: { position: written.position } };
      },
    }),
  ];
}
