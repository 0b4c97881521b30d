// The staff's seat plan editor (docs/product.md#seat-plans) at 375×740, 768×1024 and 1280×900,
// in German and English: seats placed with the button, the keyboard and the mouse, moved and
// turned by keys, a row copied and deleted, a refused label shown at its seat, 400 seats imported
// from a CSV file (a refused file named by its line), one taken out of service; all still there
// after a reload, and the screen passes axe.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, PHONE_TABLET_DESKTOP, type RunningServer } from './harness.ts';
import { iso, shown, weekdaysAhead } from './dates.ts';
import { startWithTestRooms, type TestRoom } from './test-rooms.ts';
import { LANGS, VIEWPORTS, openStaffPage, signInAs, watchRequests } from './staff-ux-support.ts';
import type { Lang } from './harness.ts';

const RUNS = LANGS.flatMap((lang) => PHONE_TABLET_DESKTOP.map((viewport) => ({ lang, viewport })));
/** One room per run, so that each starts from a room without seats. */
const roomOf = (lang: Lang, width: number): TestRoom => ({
  name: `Sitzplan ${lang} ${width}`,
  description: 'Testraum für den Sitzplan',
  capacity: 20,
});

const TEXT = {
  de: {
    editLink: 'Sitzplan bearbeiten',
    title: 'Sitzplan',
    add: 'Platz hinzufügen',
    choose: 'Platz auswählen',
    lamp: 'Leselampe',
    seat: (label: string) => `Platz ${label}`,
    selectRow: 'Ganze Reihe auswählen',
    copyRow: 'Reihe duplizieren',
    delete: 'Ausgewählte Plätze löschen',
    count: (n: number) => `${n} Plätze im Plan.`,
    save: 'Sitzplan speichern',
    saved: (n: number) => `Der Sitzplan mit ${n} Plätzen wurde gespeichert.`,
    label: 'Bezeichnung',
    x: 'Waagrechte Lage',
    rotation: 'Drehung',
    refusedSeat: 'Platz A1, Bezeichnung:',
    unsaved: 'Es gibt ungespeicherte Änderungen. Die Seite trotzdem verlassen?',
    back: 'Zurück zu',
    csvFile: 'CSV-Datei',
    csvImport: 'CSV importieren',
    imported: '400 Plätze wurden importiert.',
    csvLine: 'Zeile 4, Bezeichnung:',
    oosAdd: 'Außer Betrieb nehmen',
    oosAdded: 'Platz C7 ist außer Betrieb.',
  },
  en: {
    editLink: 'Edit the seat plan',
    title: 'Seat plan',
    add: 'Add seat',
    choose: 'Select a seat',
    lamp: 'reading lamp',
    seat: (label: string) => `Seat ${label}`,
    selectRow: 'Select the whole row',
    copyRow: 'Duplicate row',
    delete: 'Delete selected seats',
    count: (n: number) => `${n} seats on the plan.`,
    save: 'Save seat plan',
    saved: (n: number) => `The seat plan with ${n} seats was saved.`,
    label: 'Label',
    x: 'Horizontal place',
    rotation: 'Rotation',
    refusedSeat: 'Seat A1, Label:',
    unsaved: 'There are unsaved changes. Leave the page anyway?',
    back: 'Back to',
    csvFile: 'CSV file',
    csvImport: 'Import CSV',
    imported: '400 seats were imported.',
    csvLine: 'Line 4, Label:',
    oosAdd: 'Take out of service',
    oosAdded: 'Seat C7 is out of service.',
  },
} as const;

/** 20 rows (A to T) of 20 seats, 4.8 % apart: the plan of a large room as a spreadsheet. */
function largePlanCsv(): string {
  const lines = ['label;zone;attributes;x;y;rotation;notes'];
  for (let row = 0; row < 20; row++) {
    for (let n = 1; n <= 20; n++) {
      const label = `${String.fromCharCode(65 + row)}${n}`;
      const attributes = n === 1 ? 'window power' : n % 5 === 0 ? 'lamp' : '';
      const x = (3 + (n - 1) * 4.9).toFixed(1);
      const y = (3 + row * 4.9).toFixed(1);
      lines.push(`${label};${row < 10 ? 'Galerie' : ''};${attributes};${x};${y};0;`);
    }
  }
  return `${lines.join('\n')}\n`;
}

let server: RunningServer;
let stop: (() => Promise<void>) | undefined;
let started: Awaited<ReturnType<typeof startWithTestRooms>>;
const [outOfServiceDay] = weekdaysAhead(1) as [Date];

const IMAGE_ROOM: TestRoom = { name: 'Sitzplan mit Bild', description: 'Testraum', capacity: 3 };
const PLAN_SVG =
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">' +
  '<rect width="400" height="300" fill="#eef"/><rect x="20" y="20" width="360" height="40" fill="#ccd"/></svg>';

beforeAll(async () => {
  started = await startWithTestRooms({}, [
    ...RUNS.map(({ lang, viewport }) => roomOf(lang, viewport.width)),
    IMAGE_ROOM,
  ]);
  ({ server, stop } = started);
});

afterAll(() => stop?.());

const seatButtons = (page: Page) => page.getByTestId('seat-plan').getByRole('button');

describe('seat plan editor', () => {
  it.each(RUNS)(
    '$lang at $viewport.width px: places, imports, takes out of service, saves',
    async ({ lang, viewport }) => {
      const text = TEXT[lang];
      const roomId = started.idOf(roomOf(lang, viewport.width).name);
      const page = await openStaffPage(started.browser, viewport, lang);
      const log = watchRequests(page);
      await signInAs(page, server.baseUrl, lang);
      await page.goto(`${server.baseUrl}/admin/room-edit/${roomId}`);
      await page.getByRole('link', { name: text.editLink }).click();
      await page.getByRole('heading', { level: 1, name: text.title, exact: true }).waitFor();
      expect(page.url()).toBe(`${server.baseUrl}/admin/room-edit/${roomId}/seats`);

      // 10 seats with the button, 9 with the keyboard on it, 1 with the mouse on a free spot.
      const add = page.getByRole('button', { name: text.add, exact: true });
      for (let i = 0; i < 10; i++) await add.click();
      await add.focus();
      for (let i = 0; i < 9; i++) await page.keyboard.press('Enter');
      const plan = page.getByTestId('seat-plan');
      const box = await plan.boundingBox();
      expect(box).not.toBeNull();
      await plan.click({ position: { x: (box?.width ?? 0) * 0.5, y: (box?.height ?? 0) * 0.8 } });
      await expect.poll(() => seatButtons(page).count()).toBe(20);
      await page.getByText(text.count(20)).waitFor();
      const labels = await seatButtons(page).allTextContents();
      expect(labels).toEqual(Array.from({ length: 20 }, (_, i) => `A${i + 1}`));

      // The keyboard moves and turns the focused seat; its form shows where it is now.
      const a5 = page.getByRole('button', { name: text.seat('A5'), exact: true });
      // Chosen by its label, the seat has the focus; only selected seats are in the tab order.
      await page.getByLabel(text.choose).selectOption({ label: 'A5' });
      expect(await a5.evaluate((button) => button === document.activeElement)).toBe(true);
      expect(await page.locator('[data-testid=seat-plan] button[tabindex="0"]').count()).toBe(1);
      const x = page.getByLabel(text.x);
      const before = Number(await x.inputValue());
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Shift+ArrowRight');
      await expect.poll(async () => Number(await x.inputValue())).toBeCloseTo(before + 5.5, 5);
      await page.keyboard.press('r');
      expect(await page.getByLabel(text.rotation).inputValue()).toBe('15');
      expect(await a5.getAttribute('aria-pressed')).toBe('true');

      // A row copied gets the next letter, and goes again with the delete button.
      await page.getByRole('button', { name: text.selectRow }).click();
      await page.getByRole('button', { name: text.copyRow }).click();
      await page.getByText(text.count(40)).waitFor();
      await page.getByRole('button', { name: text.seat('B20'), exact: true }).waitFor();
      await page.getByRole('button', { name: text.delete }).click();
      await page.getByText(text.count(20)).waitFor();

      // A label twice is refused at its seat; leaving with changes asks first.
      await page.getByRole('button', { name: text.seat('A2'), exact: true }).click();
      await page.getByLabel(text.label, { exact: false }).first().fill('A1');
      await page.getByRole('button', { name: text.save }).click();
      await page.getByText(text.refusedSeat).first().waitFor();
      const refused = page.getByRole('button', { name: text.seat('A1'), exact: true }).last();
      expect(await refused.getAttribute('aria-describedby')).toBeTruthy();
      let question = '';
      page.once('dialog', (dialog) => {
        question = dialog.message();
        void dialog.dismiss();
      });
      await page.getByRole('link', { name: text.back }).first().click();
      expect(question).toBe(text.unsaved);
      expect(page.url()).toContain('/seats');
      await page.getByLabel(text.label, { exact: false }).first().fill('A2');
      await page.getByRole('button', { name: text.save }).click();
      await page.getByText(text.saved(20)).waitFor();
      await page.reload();
      await page.getByText(text.count(20)).waitFor();

      // A file with a label twice is refused by its line; then 400 seats are imported.
      const file = page.getByLabel(text.csvFile);
      await file.setInputFiles({
        name: 'seats.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('label;x;y\nA1;10;10\nA2;20;10\nA1;30;10\n'),
      });
      await page.getByRole('button', { name: text.csvImport }).click();
      await page.getByText(text.csvLine).waitFor();
      await file.setInputFiles({
        name: 'seats.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(largePlanCsv()),
      });
      await page.getByRole('button', { name: text.csvImport }).click();
      await page.getByText(text.imported).waitFor();
      await page.getByText(text.count(400)).waitFor();
      expect(await seatButtons(page).count()).toBe(400);

      // One seat out of service.
      await page.locator('#out-of-service-seat').selectOption({ label: 'C7' });
      await page.locator('#out-of-service-from').fill(iso(outOfServiceDay));
      await page.locator('#out-of-service-until').fill(iso(outOfServiceDay));
      await page.locator('#out-of-service-reason').fill('Lampe defekt');
      await page.getByRole('button', { name: text.oosAdd }).click();
      await page.getByText(text.oosAdded).waitFor();

      await page.reload();
      await page.getByText(text.count(400)).waitFor();
      const row = page.getByRole('row', { name: /Lampe defekt/ });
      await row.waitFor();
      expect(await row.textContent()).toContain(shown(outOfServiceDay));
      expect(await row.textContent()).toContain('C7');
      // The last row's seats are there, named with their attributes.
      await page
        .getByRole('button', { name: `${text.seat('T20')}, ${text.lamp}`, exact: true })
        .waitFor();
      await expectAccessible(page, `seat plan ${lang} ${viewport.width}`);
      // The one refused request: the file with a label twice.
      expect(log.failed).toEqual([`400 PUT ${server.baseUrl}/api/admin/rooms/${roomId}/seats.csv`]);
      await page.context().close();
    },
  );

  it('shows an uploaded plan image behind the seats and prints a QR code per seat', async () => {
    const roomId = started.idOf(IMAGE_ROOM.name);
    const put = await started.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
      json: {
        seats: ['A1', 'A2', 'A3'].map((label, i) => ({ label, x: 20 + i * 20, y: 50 })),
      },
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const { seats } = (await put.json()) as { seats: { id: string; label: string }[] };
    const page = await openStaffPage(started.browser, VIEWPORTS[1], 'de');
    const log = watchRequests(page);
    await signInAs(page, server.baseUrl, 'de');

    await page.goto(`${server.baseUrl}/admin/room-edit/${roomId}/seats`);
    await page.getByRole('link', { name: 'Planbild hochladen oder entfernen' }).click();
    await page.getByLabel('Bilddatei').setInputFiles({
      name: 'plan.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from(PLAN_SVG),
    });
    await page.getByRole('button', { name: 'Planbild speichern' }).click();
    await page.getByText(`Das Planbild von „${IMAGE_ROOM.name}“ wurde gespeichert.`).waitFor();
    await expectAccessible(page, 'seat plan image form with an image');

    // The plan shows the image (loaded, as an image: never inlined) with the seats on it.
    await page.getByRole('link', { name: `Zurück zum Sitzplan von „${IMAGE_ROOM.name}“` }).click();
    const image = page.getByTestId('seat-plan').getByRole('img', { name: 'Plan des Raums' });
    await expect
      .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBe(400);
    expect(await page.getByTestId('seat-plan').locator('svg').count()).toBe(0);
    expect(await seatButtons(page).count()).toBe(3);

    // The QR sheet: a code per seat, each leading to the seat's visitor page.
    const sheet = page.waitForResponse((r) => r.url().endsWith('/seats/qr-sheet'));
    await page.getByRole('link', { name: 'QR-Codes der Plätze drucken' }).click();
    const answer = (await (await sheet).json()) as { seats: { id: string; url: string }[] };
    expect(answer.seats.map((s) => s.url)).toEqual(
      seats.map((s) => `${server.baseUrl}/seat/${roomId}/${s.id}`),
    );
    for (const label of ['A1', 'A2', 'A3']) {
      const code = page.getByRole('img', { name: `QR-Code von Platz ${label}` });
      await expect
        .poll(() => code.evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
    }
    await expectAccessible(page, 'seat QR sheet');
    // Printed: the codes in four columns of an A4 page, without the app's header and buttons.
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: 'Drucken' }).isVisible()).toBe(false);
    expect(await page.getByRole('navigation').first().isVisible()).toBe(false);
    const columns = await page
      .locator('.qr-sheet')
      .evaluate((list) => getComputedStyle(list).gridTemplateColumns.split(' ').length);
    expect(columns).toBe(4);
    await page.emulateMedia({ media: 'screen' });

    // The pointer drags a seat across the plan image.
    await page.goto(`${server.baseUrl}/admin/room-edit/${roomId}/seats`);
    const a1 = seatButtons(page).filter({ hasText: /^A1$/ });
    await a1.scrollIntoViewIfNeeded();
    const seatBox = await a1.boundingBox();
    if (!seatBox) throw new Error('seat A1 is not on the plan');
    const [cx, cy] = [seatBox.x + seatBox.width / 2, seatBox.y + seatBox.height / 2];
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 60, cy + 30, { steps: 6 });
    await page.mouse.up();
    const x = Number(await page.getByLabel('Waagrechte Lage').inputValue());
    const y = Number(await page.getByLabel('Senkrechte Lage').inputValue());
    expect(x).toBeGreaterThan(22);
    expect(y).toBeGreaterThan(51);
    expect(log.failed).toEqual([]);
    await page.context().close();
  });
});
