// Members for the browser tests, made the way a person does: register, the mail in the local outbox, its link.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { get } from './platform.ts';

export interface Member {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

interface Mail {
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

/** A fresh identity; the address is unique per call. */
export function newMember(firstName = 'Sanne'): Member {
  return { firstName, lastName: 'Test', email: `${firstName.toLowerCase()}.${randomUUID().slice(0, 8)}@example.nl`, password: 'Ruilen2025!' };
}

/** Every mail the local outbox (/dev/mail/messages.json, newest first) holds for `to`. */
export async function mailsTo(to: string): Promise<Mail[]> {
  // One addressee's (the outbox keeps the newest 200 of every service).
  const res = await get(`/dev/mail/messages.json?to=${encodeURIComponent(to)}`);
  expect(res.status, '/dev/mail/messages.json').toBe(200);
  return ((await res.json()) as Mail[]).filter((mail) => mail.to === to);
}

/**
 * Waits until the outbox holds `count` mails for `to` (they are sent after the answer) and returns the
 * newest. A loop rather than expect.poll, which works in tests only: login states are made in hooks.
 */
export async function newestMailTo(to: string, count = 1): Promise<Mail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mails = await mailsTo(to);
    if (mails.length >= count) return mails[0]!;
    if (Date.now() > deadline) throw new Error(`no ${count} mail(s) to ${to} in the outbox after 15 s (found ${mails.length})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The path and query of the link in a mail whose path is `path` (the mail's host is the configured public one). */
export function linkIn(mail: Mail, path: string): string {
  const found = mail.text.match(/https?:\/\/[^\s"<>]+/g)?.map((url) => new URL(url)).find((url) => url.pathname.toLowerCase() === path.toLowerCase());
  expect(found, `a ${path} link in "${mail.subject}"`).toBeDefined();
  return `${found!.pathname}${found!.search}`;
}

/** Registers through the API; with `activate`, opens the activation link of the mail as the browser would. */
export async function registerMember(member: Member, { activate = true } = {}): Promise<Member> {
  const { email, password, firstName, lastName } = member;
  const res = await get('/api/auth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ firstName, lastName, email, password }) });
  expect(res.status, await res.text()).toBe(201);
  if (activate) {
    const link = linkIn(await newestMailTo(email), '/verify-email');
    const token = new URLSearchParams(link.split('?')[1]).get('token')!;
    const activated = await get(`/api/Auth/activate?${new URLSearchParams({ token })}`);
    expect(activated.status, 'activation').toBe(200);
  }
  return member;
}

/** Logs in through the /login form and waits for the dashboard and the session in local storage. */
export async function logInWithForm(page: Page, member: Pick<Member, 'email' | 'password'>): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mailadres').fill(member.email);
  await page.getByLabel('Wachtwoord').fill(member.password);
  await page.getByRole('button', { name: 'Inloggen' }).click();
  await page.waitForURL('**/dashboard');
  // The URL changes before React commits and stores the session: a saved login state needs the latter.
  await page.waitForFunction("localStorage.getItem('ruilplein.token') !== null");
}
