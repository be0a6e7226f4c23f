import { expect, test } from '@playwright/test';
import { E2E_ADMIN, signIn } from './helpers.ts';

test('signs in through the login page, reaches the dashboard, and logs out', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  await expect(page.getByText(/Welcome back/)).toBeVisible();

  await page.getByRole('button', { name: E2E_ADMIN.email.split('@')[0], exact: true }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
});

test('shows the spec messages for an invalid e-mail and a wrong captcha', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('whatever');
  await page.getByLabel('CAPTCHA', { exact: true }).fill('x');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('E-mail must be valid.')).toBeVisible();

  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByLabel('CAPTCHA', { exact: true }).fill('wrong');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('CAPTCHA failed')).toBeVisible();
});

test('shows the login failure message for a wrong password', async ({ page }) => {
  await signIn(page, E2E_ADMIN.email, 'definitely-wrong');
  await expect(page.getByText('Login failed. Please check your credentials.')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});
