// The person's side of consent, driven through the side panel's buttons as a
// person (or assistive technology) finds them: shared by the end-to-end tests
// of sites calling axsnap.
import { EXTENSION_ID } from './harness.mjs';

/** The panel as a page, working in `tabId`. */
export async function openPanel(b, tabId) {
  const panel = await b.ctx.newPage();
  await panel.goto(`chrome-extension://${EXTENSION_ID}/extension/panel/sidepanel.html?tab=${tabId}`);
  await panel.waitForSelector('body[data-ready="true"]');
  return panel;
}

/** Clicks one of a prompt's buttons ("Allow once", "Always allow", "Deny"). */
export async function answerPrompt(panel, origin, name) {
  const group = panel.getByRole('group', { name: `${origin} asks for access` });
  await group.getByRole('button', { name, exact: true }).click();
  await group.waitFor({ state: 'detached' });
}

/** Opens the panel's Sites section (closed by default). */
export async function openSites(panel) {
  const details = panel.locator('#site-details');
  if ((await details.getAttribute('open')) === null) await panel.getByText('Sites', { exact: true }).click();
}

/** A site off localhost, from its tab: "Let this tab's site connect", then the person's answer. */
export async function letConnect(panel, origin, name) {
  await openSites(panel);
  await panel.getByRole('button', { name: 'Let this tab\'s site connect' }).click();
  await answerPrompt(panel, origin, name);
}
