import react from '@vitejs/plugin-react';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { serviceWorker } from './pwa/vite-pwa.ts';

const page = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const root = page('./');

/**
 * React Router publishes a production build (its development warnings compiled out) next to the
 * development one, but no export condition selects it: the production build takes it by path.
 */
function reactRouterProductionBuild(): string {
  const packageJson = createRequire(import.meta.url).resolve('react-router/package.json');
  const file = path.join(path.dirname(packageJson), 'dist', 'production', 'index.mjs');
  if (!existsSync(file)) throw new Error(`React Router's production build is missing: ${file}`);
  return file;
}

/**
 * React Router's production build makes its contexts and components at the top level of its module
 * (`var Form = React10.forwardRef(...)`, `Form.displayName = "Form"`) without a pure annotation:
 * to the bundler these are side effects, so every component and context stays in the shared chunk
 * every page loads, used or not (the data-router `<Form>` with its submit helpers, fetchers, view
 * transitions: about 1.4 KB gzip). Here those calls are marked pure and the `displayName`
 * assignments, which only React's developer tools read, are left out, so what no screen imports is
 * dropped. Fails the build when the module no longer has that shape (an upgrade), rather than
 * silently bringing the dead code back.
 */
function reactRouterTreeShaking(): Plugin {
  let changed = 0;
  return {
    name: 'rr:react-router-tree-shaking',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]react-router[\\/]dist[\\/]production[\\/]chunk-[^\\/]*\.mjs$/ },
      handler(code) {
        let count = 0;
        const result = code
          .replace(
            /^(var [\w$]+ = )(React\d*\.(?:createContext|forwardRef|memo)\()/gm,
            (_match, declaration: string, call: string) => {
              count++;
              return `${declaration}/* @__PURE__ */ ${call}`;
            },
          )
          .replace(/^[\w$]+\.displayName = "[^"\n]*";$/gm, () => {
            count++;
            return '';
          });
        changed += count;
        return count > 0 ? { code: result, map: null } : null;
      },
    },
    buildEnd() {
      if (changed === 0) {
        throw new Error(
          "React Router's production build has no top-level contexts or components to mark pure: " +
            'check rr:react-router-tree-shaking in frontend/vite.config.ts',
        );
      }
    },
  };
}

/**
 * Writes `.vite/chunk-modules.json` next to the manifest: the source modules of every chunk
 * (paths relative to the frontend folder). tests/bench/bundle.ts checks with it that the visitor
 * download holds every visitor screen and no staff screen.
 */
function chunkModules(): Plugin {
  return {
    name: 'rr:chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: Record<string, string[]> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks[output.fileName] = output.moduleIds.map((id) =>
          path.isAbsolute(id) ? path.relative(root, id).split(path.sep).join('/') : id,
        );
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/chunk-modules.json',
        source: `${JSON.stringify(chunks, null, 2)}\n`,
      });
    },
  };
}

// Three pages share one entry (src/main.tsx): the visitor app at /, the admin app at /admin/ and
// the occupancy display at /display/.
// The mount element's data attributes choose the interface (docs/product.md#configuration).
export default defineConfig(({ command }) => ({
  root,
  // Absolute asset paths, so deep links such as /admin/room-edit/{id} load the assets.
  base: '/',
  plugins: [react(), reactRouterTreeShaking(), chunkModules(), serviceWorker()],
  resolve: {
    alias:
      command === 'build'
        ? [{ find: /^react-router$/, replacement: reactRouterProductionBuild() }]
        : [],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline scripts or styles in the output: a strict CSP (script-src 'self') applies.
    assetsInlineLimit: 0,
    // Browsers without <link rel="modulepreload"> (before Safari 17, Firefox 115) load the
    // interface's modules when they are imported instead of ahead: no polyfill in every page.
    modulePreload: { polyfill: false },
    // dist/.vite/manifest.json (chunk graph) and chunk-modules.json: read by
    // tests/bench/bundle.ts (`npm run bench:bundle`). The server does not serve dot folders.
    manifest: true,
    rolldownOptions: {
      input: {
        main: page('./index.html'),
        admin: page('./admin/index.html'),
        display: page('./display/index.html'),
      },
      output: {
        // One shared chunk, `app`: the modules that more than one entry uses (the page entry
        // and the lazily loaded visitor, admin and display interfaces), dependencies and source alike.
        // Every page loads all of it, and one file compresses better than a `vendor` and an
        // `app` chunk importing each other's bindings (0.7 KB gzip less for the visitor); the
        // price: a release that changes shared source is a new file for the dependencies too. A module that only one interface uses (a dependency or a screen)
        // stays in that interface's chunk.
        // The seat marks (and the plan picture drawing them) are shared by the seat picker, the desk's
        // seats and the display's plan,
        // but no visitor screen outside the picker shows one: left out of `app` (and so out of
        // every visitor's first download), they go with the interfaces that load them. So do a
        // site's opening hours, shared by the visitors' site chunk and the display.
        codeSplitting: {
          groups: [
            {
              name: 'app',
              test: (id: string) =>
                /node_modules[\\/]|[\\/]src[\\/]/.test(id) &&
                !/[\\/]src[\\/](components[\\/](seat-(mark|plan-picture)|site-hours)|styles[\\/]seat-marks|site-hours\.ts)/.test(
                  id,
                ),
              minShareCount: 2,
            },
            // The hours' parts in one file (one name fewer in the visitor's list of chunks).
            {
              name: 'site-hours',
              test: /[\\/]src[\\/](components[\\/]site-hours|site-hours\.ts)/,
              minShareCount: 2,
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
}));
