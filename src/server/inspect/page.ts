/** The inspector page's HTML and the headers of everything it serves. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Response } from 'express';
import { assetUrl } from '../../asset-paths.js';

/**
 * Scripts and styles only from the server itself, no inline code, no framing, no forms elsewhere; the
 * one inline style allowed is the flow diagrams' own (by its hash), which comes with each SVG.
 */
export function inspectorCsp(styleHashes: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    ["style-src 'self'", ...styleHashes.map((hash) => `'${hash}'`)].join(' '),
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The CSP source of the `<style>` an SVG carries (`sha256-…`), if it has one. */
export function styleHashOf(svg: string): string | undefined {
  const style = /<style>([\s\S]*?)<\/style>/.exec(svg)?.[1];
  return style === undefined
    ? undefined
    : `sha256-${createHash('sha256').update(style, 'utf8').digest('base64')}`;
}

/** The files the build bundles into dist/inspector-ui (scripts/bundle-inspector.js). */
export const INSPECTOR_ASSETS: Readonly<Record<string, string>> = {
  'inspector.js': 'text/javascript; charset=utf-8',
  'inspector.css': 'text/css; charset=utf-8',
};

/** dist/inspector-ui beside the compiled code, or the build's when run from source (tests). */
export function inspectorAssetsDir(): string | undefined {
  const candidates = [assetUrl('inspector-ui/'), assetUrl('../dist/inspector-ui/')];
  const found = candidates.find((url) => existsSync(new URL('inspector.js', url)));
  return found ? fileURLToPath(found) : undefined;
}

export function readAsset(dir: string, name: string): Buffer {
  return readFileSync(`${dir}/${name}`);
}

export function setPageHeaders(response: Response, csp: string): void {
  response.set({
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    // the page URL may carry ?token=: never send it on as a referrer
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
  });
}

export const INSPECTOR_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parley inspector</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/inspect/assets/inspector.css">
<script type="module" src="/inspect/assets/inspector.js"></script>
</head>
<body>
<noscript>The inspector needs JavaScript.</noscript>
<main id="inspector"></main>
</body>
</html>
`;
