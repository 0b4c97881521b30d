import { defineRoute, z, type RouteDef } from '@rr/platform';
import type { QueryDeps } from './deps.ts';

/**
 * The booking limits of the configuration (docs/product.md#limits), for the visitor app: it names them
 * before the command side refuses an add or a booking; and the library's time zone, in which
 * every app shows times.
 */
export const Settings = z
  .object({
    maxCartTickets: z
      .number()
      .int()
      .openapi({ description: 'Tickets per cart (MAX_CART_TICKETS)' }),
    holdMinutes: z.number().openapi({
      description: 'How long a cart holds its seats after each add or touch (CART_HOLD_MINUTES)',
    }),
    maxTicketsPerDay: z.number().int().openapi({
      description: 'Tickets per visitor and day, in one cart and booked (MAX_TICKETS_PER_DAY)',
    }),
    maxTicketsPerVisitor: z.number().int().openapi({
      description: 'Booked tickets per visitor from today on (MAX_TICKETS_PER_VISITOR)',
    }),
    limitsPerSite: z.boolean().openapi({
      description:
        "Whether the per-day and per-visitor maxima count each site's tickets apart (LIMITS_PER_SITE)",
    }),
    timeZone: z.string().openapi({
      description:
        "The library's time zone (TIME_ZONE, an IANA name): the browser shows every time in it, whatever the device's zone",
    }),
    webPushPublicKey: z.string().optional().openapi({
      description:
        'The VAPID public key a browser subscribes to reminders as notifications with (WEB_PUSH_VAPID_PUBLIC_KEY); absent: reminders come by mail only',
    }),
    wallets: z.object({ apple: z.boolean(), google: z.boolean() }).openapi({
      description:
        'The wallets the server makes ticket passes for (docs/product.md#wallet-passes): Apple Wallet (WALLET_…) and Google Wallet (GOOGLE_WALLET_…)',
    }),
    visitorSignIn: z
      .array(z.enum(['oidc', 'saml']))
      .optional()
      .openapi({
        description:
          'How visitors may sign in with the campus identity (VISITOR_OIDC_ISSUER, VISITOR_SAML_IDP_METADATA): each start is /api/visitor-auth/<way>/start; absent when neither is set',
      }),
  })
  .openapi('Settings');
export type Settings = z.infer<typeof Settings>;

/** The library as the visitor app names it where an address is refused. */
export const Library = z
  .object({
    contactEmail: z.string().optional().openapi({
      description:
        "The library's address for visitors' questions (LIBRARY_CONTACT_EMAIL); absent when not set",
    }),
  })
  .openapi('Library');

export function settingsQueryRoutes(deps: QueryDeps): RouteDef[] {
  const { holdMinutes, maxCartTickets, maxTicketsPerDay, maxTicketsPerVisitor } = deps.limits;
  const settings: Settings = {
    maxCartTickets,
    holdMinutes,
    maxTicketsPerDay,
    maxTicketsPerVisitor,
    limitsPerSite: deps.limits.limitsPerSite ?? false,
    timeZone: deps.timeZone,
    ...(deps.webPushPublicKey ? { webPushPublicKey: deps.webPushPublicKey } : {}),
    wallets: deps.wallets ?? { apple: false, google: false },
    ...(deps.visitorSignIn?.length ? { visitorSignIn: [...deps.visitorSignIn] } : {}),
  };
  return [
    defineRoute({
      method: 'get',
      path: '/settings',
      summary:
        "The booking limits of this server (cart size and hold, per-day and per-visitor maxima) and the library's time zone",
      tags: ['visitor'],
      access: 'public',
      responses: { 200: { description: 'The limits', schema: Settings } },
      handler: () => Promise.resolve({ body: settings }),
    }),
    defineRoute({
      method: 'get',
      path: '/library',
      summary:
        "Whom visitors write to (the library's contact address), named where their address is refused",
      tags: ['visitor'],
      access: 'public',
      responses: { 200: { description: 'The library', schema: Library } },
      handler: () =>
        Promise.resolve({
          body: deps.contactEmail ? { contactEmail: deps.contactEmail } : {},
        }),
    }),
  ];
}
