import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const page = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Two pages share one entry (src/main.tsx): the visitor app at / and the admin app at /admin/.
// The mount element's data attributes choose the interface (spec section 1).
export default defineConfig({
  root: page('./'),
  // Absolute asset paths, so deep links such as /admin/room-edit/{id} load the assets.
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline scripts or styles in the output: a strict CSP (script-src 'self') applies.
    assetsInlineLimit: 0,
    rolldownOptions: {
      input: {
        main: page('./index.html'),
        admin: page('./admin/index.html'),
      },
      output: {
        // Named vendor chunks: stable caching across releases and readable size reports.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            {
              name: 'redux',
              test: /node_modules[\\/](@reduxjs|immer|redux|reselect|react-redux|use-sync-external-store)[\\/]/,
            },
            { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next)[\\/]/ },
            {
              name: 'router',
              test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    // `npm run dev -w frontend` next to `npm start` (API on port 8080).
    proxy: { '/api': 'http://localhost:8080' },
  },
});
