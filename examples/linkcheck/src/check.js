// Fetching pages and deciding which links are broken.

const fetch = require("node-fetch");
const config = require("../config.json");

function isBroken(status) {
  return status >= 400 || status === 0;
}

async function checkLink(url, options) {
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    try {
      const res = await fetch(url, {
        headers: { "User-Agent": config.userAgent },
        signal: AbortSignal.timeout(options.timeout),
      });
      return { url, status: res.status, broken: isBroken(res.status) };
    } catch (err) {
      if (attempt === options.retries) return { url, status: 0, broken: true };
    }
  }
}

async function checkPage(page, options) {
  const res = await fetch(page);
  const html = await res.text();
  const links = [...html.matchAll(/href="(http[^"]+)"/g)].map((m) => m[1]);
  return Promise.all(links.map((url) => checkLink(url, options)));
}

module.exports = { isBroken, checkLink, checkPage };
