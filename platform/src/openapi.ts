import {
  OpenApiGeneratorV31,
  OpenAPIRegistry,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { z } from './validation.ts';
import type { RouteDef } from './routes.ts';

const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number(),
    error: z.string(),
    payload: z.array(z.string()),
    values: z.record(z.string(), z.string()).optional().openapi({
      description:
        'What the message names, beside the payload, for a code whose message key has no payload (timeslot__overlapping: date)',
    }),
    errors: z
      .array(z.object({ field: z.string(), rule: z.string(), message: z.string() }))
      .optional(),
  })
  .openapi('Problem');

export function buildOpenApi(routes: RouteDef[], info: { title: string; version: string }): object {
  const registry = new OpenAPIRegistry();
  registry.register('Problem', problemSchema);
  for (const route of routes) {
    const responses: RouteConfig['responses'] = {};
    for (const [status, r] of Object.entries(route.responses)) {
      responses[status] = r.schema
        ? {
            description: r.description,
            content: { [r.contentType ?? 'application/json']: { schema: r.schema } },
          }
        : { description: r.description };
    }
    responses['400'] ??= {
      description: 'Invalid request',
      content: { 'application/problem+json': { schema: problemSchema } },
    };
    if (route.access !== 'public') {
      responses['401'] ??= {
        description: 'Not signed in',
        content: { 'application/problem+json': { schema: problemSchema } },
      };
      responses['403'] ??= {
        description: 'Role missing',
        content: { 'application/problem+json': { schema: problemSchema } },
      };
    }
    const request: RouteConfig['request'] = {};
    if (route.params) request.params = route.params;
    if (route.query) request.query = route.query;
    if (route.body)
      request.body = { content: { 'application/json': { schema: route.body } }, required: true };
    if (route.multipart)
      request.body = { content: { 'multipart/form-data': { schema: route.multipart } } };
    registry.registerPath({
      method: route.method,
      path: `/api${route.path}`,
      summary: route.summary,
      tags: route.tags,
      request,
      responses,
      ...(route.access === 'public' ? {} : { security: [{ session: [] }, { bearer: [] }] }),
      ...(Array.isArray(route.access) ? { 'x-roles': route.access } : {}),
      // How the route finds the sites it touches (platform/src/routes.ts, SiteRule).
      ...(route.sites ? { 'x-sites': route.sites } : {}),
      ...(route.malformedPathNotFound
        ? { 'x-malformed-path-not-found': route.malformedPathNotFound }
        : {}),
    });
  }
  registry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: 'rr.sid',
  });
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'rr_…',
    description:
      'An API token an admin created (POST /api/admin/api-tokens): the roles given to it, no ' +
      'X-Requested-With header needed. A revoked, expired or unknown token answers 401.',
  });
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({ openapi: '3.1.0', info });
}
