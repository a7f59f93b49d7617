// Writes the quality fixtures of test/unit/search/fixtures (run: node bench/tools/make-quality-fixtures.js):
// - absent-services-tuned-0.jsonl: services that are not installed, combined with common actions;
//   nothing should match (relevant: []).
// - typo-queries-tuned.jsonl: dev keyword queries with a one-letter typo (not the first letter) in one
//   word of five letters or more; the relevant tools stay the same.
// - absent-services-tuned-{1,2,4,5,6,7,8}.jsonl: more services that are not installed, with other
//   actions and templates each (set 2 adds `in my {s} account`, `log into {s}`, `connect to {s}`;
//   set 4 `in {s}, {a}`, `go to {s} and {a}`; set 5 `ask {s} to {a}`, `{a} in the {s} app`; set 6
//   `does {s} let me {a}`, `{a} ({s})`; set 7 `i use {s} - {a}`, `my {s} needs me to {a}`),
//   written after the engine's rules to check them on phrasings they were not made from (set 3
//   is written by hand; every set prompted rules after it was measured: sets 7 and 8 were measured
//   once, as written, then their misses taught issue #15's gate rules). `kind` says whether the
//   service's name is an everyday English word.
// All are derived mechanically with seeded generators, so the files are reproducible.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalogEntries, loadDevQueries } from '../fixtures.js';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'unit', 'search', 'fixtures');

function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(20260901);
const pick = (list) => list[Math.floor(next() * list.length)];

// Well-known services, then lesser-known ones, so the set does not only test famous names.
const WELL_KNOWN = [
  'telegram',
  'jira',
  'salesforce',
  'hubspot',
  'trello',
  'asana',
  'zendesk',
  'shopify',
  'stripe',
  'dropbox',
  'spotify',
  'discord',
  'zoom',
  'outlook',
  'gmail',
  'whatsapp',
  'instagram',
  'linkedin',
  'facebook',
  'twitter',
  'airtable',
  'figma',
  'gitlab',
  'bitbucket',
  'confluence',
  'todoist',
  'evernote',
  'calendly',
  'mailchimp',
  'intercom',
  'pagerduty',
  'datadog',
  'quickbooks',
  'xero',
  'clickup',
  'onedrive',
  'sharepoint',
  'webex',
  'paypal',
  'venmo',
  'twitch',
  'reddit',
  'pinterest',
  'tiktok',
  'snapchat',
  'wordpress',
  'heroku',
  'vercel',
  'netlify',
  'okta',
  'mixpanel',
  'freshdesk',
  'servicenow',
  'workday',
  'docusign',
  'canva',
  'miro',
  'pipedrive',
  'klaviyo',
  'coinbase',
];
const LESSER_KNOWN = [
  'zoho',
  'freshsales',
  'pipedream',
  'clockify',
  'toggl',
  'hootsuite',
  'zoominfo',
  'attio',
  'linode',
  'bamboohr',
  'gorgias',
  'teamwork',
  'wrike',
  'basecamp',
  'smartsheet',
  'typeform',
  'jotform',
  'harvest',
  'bitrix',
  'odoo',
  'nextcloud',
  'mattermost',
  'rocketchat',
  'keap',
  'chargebee',
  'recurly',
  'paddle',
  'gumroad',
  'lemlist',
  'outreach',
  'gong',
  'front',
  'helpscout',
  'kustomer',
];
const ACTIONS = [
  'send message',
  'create issue',
  'list files',
  'create a new contact',
  'get user profile',
  'delete record',
  'update task',
  'upload file',
  'search documents',
  'schedule meeting',
  'add comment',
  'create invoice',
  'list channels',
  'post update',
  'get account balance',
  'create ticket',
  'export report',
  'add card to board',
  'create event',
  'share document',
  'list recent orders',
  'refund payment',
  'invite user',
  'archive project',
  'get analytics',
];
const TEMPLATES = ['{s} {a}', '{s} {a}', '{a} in {s}', '{a} on {s}', 'use {s} to {a}'];

const catalogWords = new Set();
for (const entry of loadCatalogEntries()) {
  const text = [
    entry.name,
    entry.server,
    entry.description ?? '',
    ...Object.keys(entry.inputSchema?.properties ?? {}),
  ].join(' ');
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) catalogWords.add(word);
}

const negatives = [];
for (const service of [...WELL_KNOWN, ...LESSER_KNOWN]) {
  // A service some tool mentions is not "not installed" for this catalog.
  if (catalogWords.has(service)) continue;
  const tier = WELL_KNOWN.includes(service) ? 'well-known' : 'lesser-known';
  for (let i = 0; i < 3; i++) {
    const query = pick(TEMPLATES).replace('{s}', service).replace('{a}', pick(ACTIONS));
    negatives.push({ id: `neg-${service}-${i}`, query, style: 'negative', service, tier, relevant: [] });
  }
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
function typo(word) {
  const at = 1 + Math.floor(next() * (word.length - 1));
  switch (pick(['delete', 'insert', 'replace', 'swap'])) {
    case 'delete':
      return word.slice(0, at) + word.slice(at + 1);
    case 'insert':
      return word.slice(0, at) + pick(LETTERS) + word.slice(at);
    case 'replace': {
      let letter = pick(LETTERS);
      while (letter === word[at]) letter = pick(LETTERS);
      return word.slice(0, at) + letter + word.slice(at + 1);
    }
    default: {
      const swapAt = Math.min(at, word.length - 2);
      if (word[swapAt] === word[swapAt + 1]) return word.slice(0, swapAt) + word.slice(swapAt + 1);
      return word.slice(0, swapAt) + word[swapAt + 1] + word[swapAt] + word.slice(swapAt + 2);
    }
  }
}

const typos = [];
for (const row of loadDevQueries()) {
  if (row.style !== 'keyword') continue;
  const words = row.query.split(' ');
  const candidates = words.map((_word, index) => index).filter((index) => /^[a-z]{5,}$/i.test(words[index]));
  if (candidates.length === 0) continue;
  const index = pick(candidates);
  const original = words[index];
  const changed = typo(original.toLowerCase());
  words[index] = changed;
  typos.push({
    id: `typo-${row.id}`,
    query: words.join(' '),
    clean: row.query,
    style: row.known ? 'typo-known-item' : 'typo-keyword',
    typo: { from: original.toLowerCase(), to: changed },
    relevant: row.relevant,
  });
}

/** Absent-service queries: each service no tool mentions, three times, in random templates. */
function heldOutNegatives(seed, prefix, groups, actions, templates) {
  const draw = random(seed);
  const choose = (list) => list[Math.floor(draw() * list.length)];
  const rows = [];
  for (const [kind, services] of groups) {
    for (const service of services) {
      if (catalogWords.has(service)) continue;
      for (let i = 0; i < 3; i++) {
        const query = choose(templates).replace('{s}', service).replace('{a}', choose(actions));
        rows.push({ id: `${prefix}-${service}-${i}`, query, style: 'negative', service, kind, relevant: [] });
      }
    }
  }
  return rows;
}

// `nylas` is installed after all: a shared catalog has `EmailByNylas`, which the word filter
// does not split, so its rows are dropped (after drawing, so the other rows stay as they were).
const heldOut1 = heldOutNegatives(
  424242,
  'heldout-neg',
  [
    [
      'english-word',
      // biome-ignore format: a word list
      ['lark', 'drip', 'ghost', 'bubble', 'glide', 'deputy', 'doodle', 'crisp', 'drift', 'nutshell', 'copper', 'streak', 'folk', 'affinity', 'hunter', 'spark', 'timely', 'bandwidth', 'homebase', 'apollo', 'woodpecker', 'harbor', 'compass', 'anchor', 'beacon', 'pulse', 'canopy', 'lattice', 'mosaic', 'ripple'],
    ],
    [
      'other',
      // biome-ignore format: a word list
      ['zulip', 'dingtalk', 'feishu', 'kajabi', 'thinkific', 'convertkit', 'activecampaign', 'brevo', 'omnisend', 'mailerlite', 'beehiiv', 'webflow', 'retool', 'appsmith', 'nocodb', 'baserow', 'logseq', 'ticktick', 'omnifocus', 'habitica', 'hubstaff', 'cronofy', 'nylas', 'mailjet', 'sparkpost', 'plivo', 'ringcentral', 'dialpad', 'aircall', 'talkdesk', 'olark', 'insightly', 'salesloft', 'lusha', 'clearbit', 'mixmax', 'tutanota', 'fastmail', 'savvycal', 'teamgantt'],
    ],
  ],
  // biome-ignore format: a word list
  ['send an invoice', 'list contacts', 'create a task', 'add a subscriber', 'start a call', 'export leads', 'book a meeting', 'archive emails', 'post a status update', 'sync my calendar', 'delete a workspace', 'get billing history', 'create a form', 'publish a page', 'track time', 'assign a ticket', 'import customers', 'send a newsletter', 'find a document', 'update a deal'],
  // biome-ignore format: a word list
  ['{s} {a}', '{a} in {s}', '{a} on {s}', 'use {s} to {a}', '{a} with {s}', '{a} via {s}', '{a} using {s}', 'open {s} and {a}', 'can you {a} in {s}', '{a} from {s}', 'how do i {a} in {s}', '{s}: {a}'],
).filter((row) => row.service !== 'nylas');

const heldOut2 = heldOutNegatives(
  99173,
  'heldout2',
  [
    // biome-ignore format: a word list
    ['well-known', ['telegram', 'whatsapp', 'gmail', 'outlook', 'jira', 'trello', 'asana', 'salesforce', 'zendesk', 'shopify', 'stripe', 'dropbox', 'spotify', 'zoom', 'teams', 'monday', 'signal', 'box', 'square', 'wechat']],
    // biome-ignore format: a word list
    ['english-word', ['badger', 'beam', 'bolt', 'cobalt', 'ember', 'falcon', 'garnet', 'juniper', 'maple', 'orbit', 'prism', 'quartz', 'sable', 'tundra', 'willow']],
    // biome-ignore format: a word list
    ['other', ['flowla', 'taskade', 'pumble', 'rocketlane', 'hiveage', 'zenkit', 'quire', 'paymo', 'bonsai', 'fibery', 'nuclino', 'slab', 'tettra', 'clickdesk', 'userlike']],
  ],
  // biome-ignore format: a word list
  ['create a ticket', 'send a reminder', 'list open tasks', 'upload a photo', 'delete old messages', 'add a new member', 'get the latest report', 'schedule a post', 'update my profile', 'search for invoices', 'export all contacts', 'start a new project'],
  // biome-ignore format: a word list
  ['{s} {a}', '{a} in {s}', '{a} on {s}', 'please {a} in {s}', '{a} through {s}', 'connect to {s} and {a}', 'i want to {a} with {s}', '{a} in my {s} account', 'log into {s} and {a}', '{s} - {a}'],
);

// Services, actions and templates none of the earlier sets use; measured once as written (0.682),
// then the rules for names after channels grew from its misses.
const heldOut4 = heldOutNegatives(
  20261201,
  'heldout4',
  [
    // biome-ignore format: a word list
    ['well-known', ['hubspot', 'pipedrive', 'freshdesk', 'intercom', 'mailchimp', 'airtable', 'clickup', 'basecamp', 'quickbooks', 'xero', 'docusign', 'calendly', 'typeform', 'netlify', 'heroku']],
    // biome-ignore format: a word list
    ['english-word', ['ledger', 'meadow', 'summit', 'thicket', 'cinder', 'pebble', 'lantern', 'velvet', 'harpoon', 'marble', 'saffron', 'trellis', 'kestrel', 'bramble', 'flint']],
    // biome-ignore format: a word list
    ['other', ['wrike', 'clockify', 'todoist', 'pandadoc', 'gorgias', 'klaviyo', 'chargebee', 'recurly', 'zuora', 'bamboohr', 'personio', 'workable', 'teamtailor', 'ashby', 'deel']],
  ],
  // biome-ignore format: a word list
  ['close a support ticket', 'create a purchase order', 'list unpaid bills', 'add a calendar event', 'approve an expense', 'send a contract for signature', 'share a folder', 'merge two contacts', 'refund a payment', 'create a landing page', 'tag a conversation', 'invite a teammate'],
  // biome-ignore format: a word list
  ['{a} for me in {s}', 'in {s}, {a}', '{s} please {a}', 'go to {s} and {a}', 'help me {a} on {s}', '{a} inside {s}', 'using {s}, {a}', 'with {s} {a}', '{a} over at {s}', 'could you {a} via {s}', '{s} > {a}', 'i need to {a} in {s} today'],
);

// Written with set 4's rules in place; measured once as written (0.556), then its misses prompted
// the ask/tell … to, opener, `the … app` and trailing-label rules.
const heldOut5 = heldOutNegatives(
  5150,
  'heldout5',
  [
    // biome-ignore format: a word list
    ['well-known', ['bitbucket', 'gitlab', 'confluence', 'smartsheet', 'squarespace', 'wix', 'godaddy', 'twitch', 'pinterest', 'tumblr', 'venmo', 'coinbase', 'robinhood', 'doordash', 'instacart']],
    // biome-ignore format: a word list
    ['english-word', ['walrus', 'tangerine', 'paddock', 'quiver', 'hamlet', 'gazebo', 'muffin', 'sparrow', 'tinsel', 'bobcat', 'cobbler', 'lagoon', 'mantis', 'nugget', 'otter']],
    // biome-ignore format: a word list
    ['other', ['kintone', 'zohodesk', 'freshsales', 'keap', 'nimble', 'agiloft', 'tallyfy', 'pipefy', 'zapdesk', 'helpscout', 'kustomer', 'frontapp', 'missive', 'superhuman', 'sendinblue']],
  ],
  // biome-ignore format: a word list
  ['cancel my subscription', 'download last month\'s invoice', 'rename a project', 'move a card to done', 'reply to the latest email', 'pause a campaign', 'reset my password', 'print a shipping label', 'change the due date', 'list my followers', 'transfer ownership', 'pin a message'],
  // biome-ignore format: a word list
  ['{a} in {s}', '{s} {a}', 'can {s} {a}', 'hey, {a} on {s}', 'in my {s}, {a}', 'is it possible to {a} with {s}?', '{a} - {s}', 'please use {s} and {a}', 'ask {s} to {a}', '{a} in the {s} app', 'from {s}: {a}', 'tell {s} to {a}'],
);

// Written after every rule above and the longer service list; measured once as written (0.526),
// then its misses prompted the comma label, bracketed label, `does … let me` and `… website`.
const heldOut6 = heldOutNegatives(
  60606,
  'heldout6',
  [
    // biome-ignore format: a word list
    ['well-known', ['okcupid', 'tinder', 'bumble', 'hinge', 'grindr', 'wattpad', 'scribd', 'blinkist', 'audiomack', 'soundtrap', 'splice', 'tidal', 'rakuten', 'mercari', 'poshmark']],
    // biome-ignore format: a word list
    ['english-word', ['thimble', 'kettle', 'lantana', 'pylon', 'crater', 'pinecone', 'seashell', 'gravel', 'sundial', 'trowel', 'wicker', 'mistletoe', 'parsnip', 'quill', 'haystack']],
    // biome-ignore format: a word list
    ['other', ['vtiger', 'bitrix', 'teamleader', 'moxo', 'flowlu', 'ruddr', 'hibob', 'rydoo', 'spendesk', 'payhawk', 'pleo', 'qonto', 'tipalti', 'bill2pay', 'shopwired']],
  ],
  // biome-ignore format: a word list
  ['add a comment to the task', 'find my recent orders', 'set my status to away', 'remove a user', 'export a report as csv', 'block a contact', 'start a free trial', 'upgrade my plan', 'record a voice note', 'duplicate the board', 'translate this message', 'search past conversations'],
  // biome-ignore format: a word list
  ['{a} with my {s}', 'could {s} {a}?', '{a} on the {s} website', 'over in {s}, {a}', 'let\'s {a} using {s}', '{a}. use {s}', 'need {s} to {a}', 'in {s} please {a}', 'does {s} let me {a}', '{a} ({s})', 'via {s}: {a}', '{s}, {a}'],
);

// Written after set 6's rules and measured once as written (0.853); issue #15's gate rules then
// grew from its misses (the spaced dash, sentences that open with an English-word app).
const heldOut7 = heldOutNegatives(
  777,
  'heldout7',
  [
    // biome-ignore format: a word list
    ['well-known', ['grubhub', 'opentable', 'coursera', 'duolingo', 'bitwarden', 'sonarqube', 'zillow', 'patreon', 'imgur', 'revolut', 'jenkins', 'netsuite', 'waze', 'unsplash', 'replit']],
    // biome-ignore format: a word list
    ['english-word', ['acorn', 'bellows', 'corridor', 'dovetail', 'ferret', 'gimlet', 'hammock', 'inkwell', 'jigsaw', 'kiln', 'lilac', 'mortar', 'nettle', 'oriole', 'puffin']],
    // biome-ignore format: a word list
    ['other', ['xentral', 'plecto', 'klipfolio', 'databox', 'lemlist', 'woodpeckr', 'outfunnel', 'zoominfo', 'seamlessai', 'apollio', 'usergems', 'clari', 'gong', 'chorusai', 'avoma']],
  ],
  // biome-ignore format: a word list
  ['archive the old channel', 'send the weekly digest', 'look up an order status', 'create a new segment', 'sync contacts', 'list the top customers', 'schedule a reminder', 'generate an invoice pdf', 'open a new ticket', 'download the attachments', 'update billing details', 'show my dashboard'],
  // biome-ignore format: a word list
  ['{a} on {s}', '{s}: {a}', 'i use {s} - {a}', 'we have {s}. {a}', '{a} for our {s} workspace', 'could you {a} through {s}', '{s} {a} now', 'my {s} needs me to {a}', '{a} within {s}', 'open {s}, then {a}', 'with {s}, {a}', 'quickly {a} in {s}'],
);

// Issue #15: written after the term selection, WordNet and the maintained app lists, before
// measuring it, and measured once (0.859): services, actions and templates none of the sets above
// use. Its misses then taught the channel-owner frame (`in my lemur?`, `using the sellsy api`) and
// a channel opening the query (`on heron rename …`).
const once8 = heldOutNegatives(
  15015,
  'once8',
  [
    // biome-ignore format: a word list
    ['well-known', ['lyft', 'etsy', 'vimeo', 'snapchat', 'tiktok', 'linkedin', 'yelp', 'expedia', 'paypal', 'klarna', 'canva', 'miro', 'deezer', 'strava', 'fitbit']],
    // biome-ignore format: a word list
    ['english-word', ['thistle', 'walnut', 'beaver', 'cactus', 'dolphin', 'fennel', 'gopher', 'heron', 'ivy', 'jackal', 'kayak', 'lemur', 'magpie', 'nectar', 'oyster']],
    // biome-ignore format: a word list
    ['other', ['zammad', 'odoo', 'sellsy', 'axonaut', 'holded', 'factorial', 'lucca', 'payfit', 'swile', 'agicap', 'pennylane', 'libeo', 'qonto', 'spendesk', 'malt']],
  ],
  // biome-ignore format: a word list
  ['mark the invoice as paid', 'add a note to the lead', 'check the delivery status', 'rename the folder', 'mute the thread', 'star the message', 'forward the receipt', 'clone the template', 'assign the order to me', 'show unread notifications', 'lock the document', 'post the weekly update'],
  // biome-ignore format: a word list
  ['{a} in {s} for me', 'go ahead and {a} on {s}', '{s} — {a}', 'can you {a} in my {s}?', "i'd like to {a} using {s}", 'in our {s} account, {a}', '{a}, on {s}', 'hop into {s} and {a}', '{a} (in {s})', 'using the {s} api, {a}', 'on {s} {a}', 'through {s} please {a}'],
);

const jsonl = (rows) => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
// Issue #15: each file is named for what it is. `tuned` sets taught the rules (each prompted
// rules after it was measured); a `once` set is measured once, as written, and never tuned on
// (the sets numbered 9, by a writer who saw no rule, are not generated here: measured once, then
// read for issue #15's gate, so tuned now).
writeFileSync(join(out, 'absent-services-tuned-0.jsonl'), jsonl(negatives));
writeFileSync(join(out, 'typo-queries-tuned.jsonl'), jsonl(typos));
// Tuned set 3 is written by hand.
const heldOutSets = [
  ['tuned-1', heldOut1],
  ['tuned-2', heldOut2],
  ['tuned-4', heldOut4],
  ['tuned-5', heldOut5],
  ['tuned-6', heldOut6],
  ['tuned-7', heldOut7],
  ['tuned-8', once8],
];
for (const [set, rows] of heldOutSets) {
  writeFileSync(join(out, `absent-services-${set}.jsonl`), jsonl(rows));
}
console.log(
  `absent-services-tuned-0.jsonl: ${negatives.length} rows; typo-queries-tuned.jsonl: ${typos.length} rows; ` +
    `later absent-service sets: ${heldOutSets.map(([, rows]) => rows.length).join(' + ')} rows`,
);
