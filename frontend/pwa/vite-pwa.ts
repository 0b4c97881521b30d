import { VitePWA } from 'vite-plugin-pwa';
import type { PluginOption } from 'vite';

/**
 * The files the service worker precaches: the visitor app's shell (its page, scripts, styles,
 * texts and icons), so "my tickets" opens offline once it has been opened online
 * (docs/product.md#installable-app). The staff and display interfaces and their texts stay out:
 * visitors never load them, and their pages are never answered from the cache.
 */
const PRECACHE = ['index.html', 'manifest.webmanifest', 'icons/*.png', 'assets/*.{js,css}'];
const NOT_PRECACHED = [
  'admin/**',
  'display/**',
  '.vite/**',
  'assets/{admin-app,display-app}-*.{js,css}',
  'assets/{staff,display}.{de,en}-*.js',
  // The display's hyphenation patterns.
  'assets/{de-1996,en-us}-*.js',
  // The seat picker, the seat's page and their seat marks: only rooms with a seat plan load
  // them, and only online.
  'assets/{seat-picker,seat-page,seat-mark,seat-plan-picture}-*.{js,css}',
];

/**
 * vite-plugin-pwa with the `injectManifest` strategy: it builds src/sw/sw.ts to `dist/sw.js` and
 * writes the precache list into it. The web app manifest is a static file
 * (public/manifest.webmanifest) linked by the visitor page only, and the visitor interface
 * registers the worker itself (src/app/register-service-worker.ts): nothing is injected into the
 * pages, whose scripts stay files ('self' in the CSP).
 */
export function serviceWorker(): PluginOption {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src/sw',
    filename: 'sw.ts',
    manifest: false,
    injectRegister: false,
    injectManifest: {
      globPatterns: PRECACHE,
      globIgnores: NOT_PRECACHED,
      rollupFormat: 'iife',
    },
  });
}
