// One `floe up` on free loopback ports and a chromium page on its console: what every console
// test starts with. The browser is Debian's chromium driven by playwright-core; screenshots go to
// $FLOE_BUILD_DIR/test-artifacts/<folder>/.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { freePort, waitFor } from '../support/waiting.mjs';

export class ConsoleSession {
  constructor(folder) {
    this.shots = path.join(process.env.FLOE_BUILD_DIR || os.tmpdir(), 'test-artifacts', folder);
    this.log = '';
    this.consoleErrors = [];
  }

  // Starts `floe up --data <a new folder> --query-listen <a free port> ...flags` and waits until
  // the console answers. Every other listener is the caller's to give (free ports too).
  async start(flags) {
    if (!process.env.FLOE_BIN) throw new Error('FLOE_BIN is not set');
    fs.mkdirSync(this.shots, { recursive: true });
    this.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'floe-console-'));
    this.base = `http://127.0.0.1:${await freePort()}`;
    this.floe = spawn(process.env.FLOE_BIN, ['up', '--data', this.dataDir,
      '--query-listen', this.base.replace('http://', ''), ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.floe.stdout.on('data', (d) => { this.log += d; });
    this.floe.stderr.on('data', (d) => { this.log += d; });
    await waitFor('floe up to serve the console', async () => {
      if (this.floe.exitCode !== null) throw new Error(`floe up exited ${this.floe.exitCode}: ${this.log.slice(-2000)}`);
      return (await fetch(`${this.base}/api/pipeline`)).ok;
    });
  }

  // A page of the given size; its console errors and uncaught exceptions are kept in
  // consoleErrors for the test to check.
  async openBrowser(viewport) {
    const executablePath = execFileSync('which', ['chromium']).toString().trim();
    this.browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    this.page = await this.browser.newPage({ viewport });
    this.page.on('console', (m) => { if (m.type() === 'error') this.consoleErrors.push(m.text()); });
    this.page.on('pageerror', (e) => this.consoleErrors.push(`uncaught: ${e.message}`));
    return this.page;
  }

  async pipeline() {
    return (await fetch(`${this.base}/api/pipeline`)).json();
  }

  async post(pathname, body) {
    const response = await fetch(`${this.base}${pathname}`, { method: 'POST',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  }

  async shot(name) {
    await this.page.screenshot({ path: path.join(this.shots, `${name}.png`), fullPage: true });
  }

  // Closes the browser, stops floe up (SIGTERM, SIGKILL after 20 s) and removes its data.
  async stop() {
    await this.browser?.close();
    if (this.floe && this.floe.exitCode === null) {
      const exited = new Promise((r) => this.floe.once('exit', r));
      this.floe.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20000))]);
      if (this.floe.exitCode === null) this.floe.kill('SIGKILL');
    }
    if (this.dataDir) fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
