#!/usr/bin/env node
// Command line entry point: reads the list of pages and prints the broken links.

const fs = require("fs");
const { checkPage } = require("./check");
const { formatReport } = require("./report");

const DEFAULTS = {
  timeout: 5000,
  retries: 2,
};

function parseArgs(argv) {
  const options = { ...DEFAULTS, file: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--timeout") options.timeout = Number(argv[++i]);
    else if (argv[i] === "--retries") options.retries = Number(argv[++i]);
    else options.file = argv[i];
  }
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const pages = fs.readFileSync(options.file, "utf8").split("\n").filter(Boolean);
  const results = [];
  for (const page of pages) {
    results.push(...(await checkPage(page, options)));
  }
  console.log(formatReport(results));
}

main();
