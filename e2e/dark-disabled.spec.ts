import { expect, test } from './test';
import { PlaygroundPage } from './pages/playground-page';

test.use({ colorScheme: 'dark' });

test('in dark mode a disabled Abort looks disabled: grey, not the red of a live Abort', async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  const abort = page.getByTestId('abort-button');
  await expect(abort).toBeDisabled();
  const look = await abort.evaluate((el) => {
    const root = getComputedStyle(document.documentElement);
    const probe = document.createElement('span');
    document.body.append(probe);
    const colour = (v: string) => {
      probe.style.color = `var(${v})`;
      return getComputedStyle(probe).color;
    };
    const style = getComputedStyle(el);
    const out = {
      scheme: root.colorScheme,
      color: style.color,
      background: style.backgroundColor,
      opacity: style.opacity,
      fail: colour('--c-fail'),
      faint: colour('--c-faint'),
      sunken: colour('--c-sunken'),
    };
    probe.remove();
    return out;
  });
  expect(look.scheme).toBe('dark');
  expect(look.color).toBe(look.faint);
  expect(look.color).not.toBe(look.fail);
  expect(look.background).toBe(look.sunken);
  expect(look.opacity).toBe('1');
});
