import { randomUUID } from 'node:crypto';
import { openBoundsOf, SiteInput } from '@rr/contracts';
import { defineRoute, fromContract, z, type RouteDef } from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
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
