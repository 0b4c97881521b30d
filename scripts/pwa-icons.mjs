// Draws the installable app's icons (frontend/public/icons/*.png) from frontend/pwa/icon.svg with
// the test browser (Chromium, as the e2e tests use it): `node scripts/pwa-icons.mjs`. Run once
// after changing the drawing; the PNGs are committed, so builds need no browser.
// The square drawing fills the icon (no transparent corners), so the same picture serves as the
// maskable icon: its content stays inside the middle 80 % a platform's mask keeps.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const svg = readFileSync(path.join(root, 'frontend', 'pwa', 'icon.svg'), 'utf8');
const out = path.join(root, 'frontend', 'public', 'icons');
const ICONS = [
  ['icon-192.png', 192],
  ['icon-512.png', 512],
  ['maskable-512.png', 512],
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
});
try {
  for (const [file, size] of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<body style="margin:0">${sized}</body>`);
    await page.locator('svg').screenshot({ path: path.join(out, file) });
    await page.close();
    console.log(`wrote frontend/public/icons/${file} (${size}×${size})`);
  }
} finally {
  await browser.close();
}
