// Turning check results into the text linkcheck prints.

function formatReport(results) {
  const broken = results.filter((r) => r.broken);
  const lines = broken.map((r) => `${r.status} ${r.url}`);
  lines.push(`${broken.length} of ${results.length} links broken`);
  return lines.join("\n");
}

module.exports = { formatReport };
