import { expect, type Page } from '@playwright/test';
import { E2E_ADMIN, E2E_CAPTCHA } from '../playwright.config.ts';

export { E2E_ADMIN, E2E_CAPTCHA };

/** Signs in through the real login page. */
export const signIn = async (page: Page, email = E2E_ADMIN.email, password = E2E_ADMIN.password) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await expect(page.getByAltText('CAPTCHA')).toBeVisible();
  await page.getByLabel('CAPTCHA', { exact: true }).fill(E2E_CAPTCHA);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
};
