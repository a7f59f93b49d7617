import { describe, expect, it } from 'vitest';
import { createToolIndex } from '../../../src/search/index.js';
import type { IndexEntry } from '../../../src/search/types.js';

// The default engine's departures from the reference, one rule per test, on a small catalog.
const tool = (server: string, name: string, description: string, ...parameters: string[]): IndexEntry => ({
  name: `mcp__${server}__${name}`,
  server,
  description,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p, { type: 'string' }])),
  },
});

const CATALOG: IndexEntry[] = [
  tool('github', 'create_issue', 'Create a new issue in a GitHub repository', 'title', 'body'),
  tool(
    'github',
    'list_issues',
    'List issues in a repository. Supports paging with cursors and many filters.',
    'repo',
  ),
  tool('github', 'list_issue_types', 'List the issue types of an organization', 'org'),
  tool('slack', 'send_message', 'Post a message into a Slack channel', 'channel', 'text'),
  tool('weather', 'get_forecast', 'Weather forecast for a city', 'city'),
  tool('designer', 'canvas_draw', 'Draw shapes on a canvas', 'shape'),
  tool('pager', 'notify', 'Send an alert through PagerDuty', 'message'),
  tool('billing', 'create_charge', 'Create a recurring charge for a customer', 'amount'),
];
const index = createToolIndex(CATALOG);

describe('default engine', () => {
  describe('unknown-name gate', () => {
    it('returns no matches for a service that is not installed, with a guess kept apart', () => {
      const result = index.search('jira create issue');
      expect(result.matches).toEqual([]);
      expect(result.unknownWords).toEqual(['jira']);
      expect(result.didYouMean?.[0]).toBe('mcp__github__create_issue');
    });

    it('stops on a service of your own list wherever it stands, even when it is an English word', () => {
      const listed = createToolIndex(CATALOG, { serviceNames: ['Telegram'] });
      expect(listed.search('send a message, then a telegram message').matches).toEqual([]);
      expect(listed.search('send message').matches[0]).toBe('mcp__slack__send_message');
    });

    it('issue #15: stops on a known app of the maintained lists, and reads one named with an English word as that word', () => {
      // `hubspot`, `zendesk`: no English word; `telegram`: one, so only where a service is named.
      expect(index.search('create issue from the hubspot lead').unknownWords).toEqual(['hubspot']);
      expect(index.search('zendesk create issue').unknownWords).toEqual(['zendesk']);
      expect(index.search('send a telegram message to the team').unknownWords).toBeUndefined();
      expect(index.search('send message via telegram').unknownWords).toEqual(['telegram']);
      expect(
        createToolIndex(CATALOG, { knownApps: false }).search('zendesk create issue').unknownWords,
      ).toEqual(['zendesk']);
      expect(
        createToolIndex(CATALOG, { knownApps: false }).search('create issue from the hubspot lead')
          .unknownWords,
      ).toBeUndefined();
    });

    it('matches a listed service only as written, not through a stem of another word', () => {
      // `canva` stems like `canvas`.
      const listed = createToolIndex(CATALOG, { serviceNames: ['canva'] });
      expect(listed.search('canva draw shapes').unknownWords).toEqual(['canva']);
    });

    it('ignores English words no tool holds instead of stopping on them', () => {
      const result = index.search('please tell me the weather forecast for tomorrow', { explain: true });
      expect(result.matches[0]).toBe('mcp__weather__get_forecast');
      expect(result.explanation?.ignoredWords).toEqual(expect.arrayContaining(['please', 'tomorrow']));
    });

    it('stops on an unknown name only where a service is named: first, after in/on/with/…, after use/open, after my/into', () => {
      for (const query of [
        'zorblat create issue',
        'Zorblat: list issues',
        'create an issue in zorblat',
        'post a message on zorblat',
        'send an alert via zorblat',
        'use zorblat to post a message',
        'open zorblat and list issues',
        'list issues in my zorblat account',
        'log into zorblat and list issues',
      ]) {
        expect(index.search(query).unknownWords, query).toEqual(['zorblat']);
      }
    });

    it('reads an unknown name anywhere else as what the task is about (a place, a product, a typo)', () => {
      const result = index.search('weather forecast zhongguancun', { explain: true });
      expect(result.matches[0]).toBe('mcp__weather__get_forecast');
      expect(result.explanation?.ignoredWords).toEqual(['zhongguancun']);
      expect(index.search('create zorblat issue').matches[0]).toBe('mcp__github__create_issue');
    });

    it('treats names in a long sentence as what the task is about, not as missing services', () => {
      const long = 'I am travelling next week and would like to know the weather forecast in Zhongguancun';
      expect(index.search(long).matches[0]).toBe('mcp__weather__get_forecast');
      expect(index.search('weather forecast in zhongguancun').matches).toEqual([]);
    });

    describe('issue #15: a name written as one after in/on/via/using in a long task', () => {
      const ripples = createToolIndex([
        ...CATALOG,
        tool('pond', 'make_ripple', 'Make a ripple on the water', 'size'),
      ]);
      // Its scored words spread over three tools: no one tool answers the task without the name.
      const task = (where: string) =>
        `Once the forecast is out, please open an issue about the flaky login test ${where} and draw a shape.`;

      it('stops the task on a capitalized name no tool holds, or holds only through a stem', () => {
        expect(index.search(task('in Zorblat')).unknownWords).toEqual(['zorblat']);
        expect(index.search(task('via Zorblat')).unknownWords).toEqual(['zorblat']);
        // A word no dictionary knows whatever follows; an English word only where its phrase ends.
        expect(index.search(task('in Zorblat under the old board')).unknownWords).toEqual(['zorblat']);
        expect(index.search(task('in Tundra under the old board')).matches).not.toEqual([]);
        expect(index.search(task('in Zorblat')).matches).toEqual([]);
        // A name of several capitalized words is read whole, from the channel to its phrase's end.
        expect(index.search(task('in Zorblat Weather')).unknownWords).toEqual(['zorblat']);
        expect(index.search(task('through Weather Zorblat')).unknownWords).toEqual(['zorblat']);
        // `rippling` is not `ripple`: a stem some tool holds names no app written like this.
        expect(ripples.search(task('in Rippling')).unknownWords).toEqual(['rippling']);
        expect(index.search(task('in Zorblat'), { explain: true }).explanation?.whyUnknown?.zorblat).toBe(
          'a name no dictionary knows, where a service is named: after "in", where its phrase ends',
        );
      });

      it('reads it as what the task is about in lower case, after with/from, as a place, in a title or a longer name', () => {
        for (const where of [
          'in zorblat',
          'with Zorblat',
          'from Zorblat',
          // A town of any size, or a name followed by its state, is a place.
          'in Darwin',
          'in Zorblat, Ohio,',
          // A longer name ending in a place's noun, or one the dictionary names as a place or a
          // thing of the world, is a place; among many names, data.
          'in Zorblat Park',
          'in the Rocky Mountains',
          'in the Swiss Alps',
          'in Zorblat Plus, or at Quimby Hall, Fenwick Lane or Dorset Market',
          'for the painting "Dawn in Zorblat"',
        ]) {
          expect(index.search(task(where)).matches, where).not.toEqual([]);
        }
        expect(ripples.search(task('in rippling water')).matches).not.toEqual([]);
        // A name the catalog holds abbreviated: by its first two letters a word, or its initials.
        const abbreviated = createToolIndex([
          ...CATALOG,
          tool('zowa', 'get_character', 'Look up a character of the game', 'name'),
          tool('guides', 'zqx_guide', 'Open a guide for a level', 'level'),
        ]);
        expect(abbreviated.search(task('in Zorblat Waves')).matches).not.toEqual([]);
        expect(abbreviated.search(task('in Zorblat Quimby Xanadu')).matches).not.toEqual([]);
        expect(abbreviated.search(task('in Zorblat Quimby')).matches).toEqual([]);
      });

      it('reads it as data when one tool holds most of the rest of the task', () => {
        const answered =
          'I am travelling next week and would like the weather forecast for the city in Zorblat';
        const result = index.search(answered, { explain: true });
        expect(result.matches[0]).toBe('mcp__weather__get_forecast');
        expect(result.explanation?.words.find((fate) => fate.word === 'zorblat')?.why).toBe(
          "no tool holds it: an app's name where a service is named, but one tool holds most of the rest of this long query",
        );
      });
    });

    it('issue #15: reads a name signed into or owned as an account as the service however long the query', () => {
      const long = (frame: string) =>
        `After the meeting this morning I would like you to ${frame} and show me the weather forecast for the weekend trip`;
      for (const frame of [
        'open my Zorblat account',
        'log into Zorblat',
        'check the notes in our zorblat workspace',
      ]) {
        expect(index.search(long(frame)).unknownWords, frame).toEqual(['zorblat']);
      }
      // `the` owns nothing, and a person is asked to do things.
      for (const frame of ['open the zorblat website', 'ask Zorblat to pack']) {
        expect(index.search(long(frame)).matches[0], frame).toBe('mcp__weather__get_forecast');
      }
    });

    it('treats many names at once as data, not services', () => {
      expect(index.search('qzxv weather forecast via wbbrt in plokj').matches[0]).toBe(
        'mcp__weather__get_forecast',
      );
      expect(index.search('qzxv weather forecast via wbbrt').matches).toEqual([]);
    });

    it('reads an everyday English word as a name only after use/open, last after in/on/…, or first before an action', () => {
      // `List` starts two descriptions: an action of this catalog. `Weather` starts one.
      for (const query of ['harvest list issues', 'use harvest to list issues', 'list issues in harvest']) {
        expect(index.search(query).unknownWords, query).toEqual(['harvest']);
      }
      for (const query of [
        'harvest weather forecast',
        'list issues for my harvest',
        'weather forecast harvest',
        'weather forecast through harvest season',
      ]) {
        expect(index.search(query).matches, query).not.toEqual([]);
      }
    });

    it('reads even an English word as a name after connect to / log into, between my and account, or as a label', () => {
      for (const query of [
        'connect to harvest and list issues',
        'log into harvest and list issues',
        'sign in to harvest and list issues',
        'list issues in my harvest account',
        'harvest: weather forecast for a city',
        'harvest - weather forecast for a city',
      ]) {
        expect(index.search(query).unknownWords, query).toEqual(['harvest']);
      }
      for (const query of ['list issues for my harvest folder', 'harvest weather forecast for a city']) {
        expect(index.search(query).matches, query).not.toEqual([]);
      }
    });

    it('issue #15: reads a known app named with an English word between my/our/your and a thing some tool holds as whose it is', () => {
      expect(index.search('list my copper issues').unknownWords).toEqual(['copper']);
      expect(index.search('list our copper repository issues').unknownWords).toEqual(['copper']);
      // Not after `the`, nor before a word no tool holds, nor in a long task.
      for (const query of [
        'list the copper issues',
        'list issues for my harvest folder',
        'once the forecast is out, please list every one of my copper issues and draw a shape',
      ]) {
        expect(index.search(query).matches, query).not.toEqual([]);
      }
    });

    it('issue #15: reads a name after an opening action and before `for` as where it runs', () => {
      expect(index.search('list zorblat for open issues').unknownWords).toEqual(['zorblat']);
      // A place there is what the task is about.
      expect(index.search('list paris for open issues').matches).not.toEqual([]);
    });

    it("issue #15: a hyphenated name's words stand where it does", () => {
      expect(index.search('paperless-zorb list issues').unknownWords).toEqual(['paperless', 'zorb']);
      expect(index.search('calibre-net create issue').unknownWords).toEqual(['calibre', 'net']);
      // Not before words that are no action.
      expect(index.search('real-time weather forecast for a city').matches).not.toEqual([]);
    });

    it('issue #15: a number of up to four digits after a name ends its phrase as its edition', () => {
      expect(index.search('create an issue in copper 50').unknownWords).toEqual(['copper']);
      expect(index.search('create an issue in copper 2024 today').unknownWords).toEqual(['copper']);
      // A longer number is an id, which the name is about.
      expect(index.search('create an issue in copper 436535').matches).not.toEqual([]);
    });

    it('reads a name as a service after a channel where its phrase ends, after ask/tell/need … to, an opener, in the … app, and as a label', () => {
      for (const query of [
        'in zorblat, create an issue',
        'create an issue in zorblat today',
        'create an issue inside zorblat',
        'create an issue over at zorblat',
        'go to zorblat and list issues',
        'ask zorblat to list issues',
        'tell zorblat to post a message',
        'list issues in the zorblat app',
        'can zorblat list issues',
        'list issues - zorblat',
        'list issues (zorblat)',
        'zorblat > list issues',
        'zorblat, list issues',
        'does zorblat let me list issues',
        'need zorblat to list issues',
        'list issues on the zorblat website',
      ]) {
        expect(index.search(query).unknownWords, query).toEqual(['zorblat']);
      }
      // An English word needs the clearer places: not before an action, not after a bare `at`.
      for (const query of [
        'weather forecast at noon',
        'list issues through rough patch',
        'yes, weather forecast',
      ]) {
        expect(index.search(query).matches, query).not.toEqual([]);
      }
      expect(index.search('list issues over at harvest').unknownWords).toEqual(['harvest']);
    });

    it('issue #15: reads a spaced dash as a pause, so a name before it ends its phrase', () => {
      expect(index.search('i use harvest - list issues').unknownWords).toEqual(['harvest']);
      expect(index.search('i use harvest — list issues').unknownWords).toEqual(['harvest']);
      // A dash inside a word joins a compound: `harvest-time` is no name standing alone.
      expect(index.search('use harvest-time issues list').matches).not.toEqual([]);
    });

    it('issue #15: reads a name after a channel and an owner (in my …, using the … repository), and an English one only when it names a thing', () => {
      for (const [query, name] of [
        ['list issues in my zorblat?', 'zorblat'],
        ['using the zorblat repository, list issues', 'zorblat'],
        ['list issues in my lemur?', 'lemur'],
        ['using the kiln repository, list issues', 'kiln'],
        ['post a message with my pinecone', 'pinecone'],
      ] as const) {
        expect(index.search(query).unknownWords, query).toEqual([name]);
      }
      // WordNet's places and times are where a task happens, not apps.
      for (const query of ['weather forecast in my area', 'weather forecast in my town?']) {
        expect(index.search(query).matches, query).not.toEqual([]);
      }
    });

    it('issue #15: reads a name after a channel that opens the query, before the action', () => {
      expect(index.search('on heron list issues').unknownWords).toEqual(['heron']);
      expect(index.search('with zorblat list issues').unknownWords).toEqual(['zorblat']);
      // A word WordNet knows as a time (or a place) is the task's setting, even with a thing's sense.
      expect(index.search('in spring create a charge').matches).not.toEqual([]);
    });

    it('issue #15: reads an English word first, before an action, in a sentence of any length but not in keywords', () => {
      expect(index.search('harvest create a new issue for the team now').unknownWords).toEqual(['harvest']);
      // Six keywords and no word of a sentence: the first is what the task is about.
      expect(index.search('harvest create issue repository title body').matches).not.toEqual([]);
    });

    it('issue #15: reads an English word written as a name (capitalized inside a sentence, or quoted) as a name', () => {
      for (const query of ['post a message for my Hammock team', 'post a message for my "hammock" team']) {
        expect(index.search(query).unknownWords, query).toEqual(['hammock']);
      }
      // Lower-case, or a query in Title Case throughout, says nothing by its capitals.
      for (const query of ['post a message for my hammock team', 'Post A Message For My Hammock Team']) {
        expect(index.search(query).matches, query).not.toEqual([]);
      }
    });

    it('issue #15: a known app right after a channel stops a long query too, unless it is a place or a language', () => {
      const long = 'go ahead and please add a note to the message we posted on snapchat';
      expect(index.search(long).unknownWords).toEqual(['snapchat']);
      // Named elsewhere in a long sentence, a known app is what the task is about.
      expect(
        index.search('go ahead and post the hubspot message to the channel for the team').matches,
      ).not.toEqual([]);
      // `beijing` and `kotlin` are brands too, but a city and a language first.
      expect(index.search('weather forecast in beijing').matches).not.toEqual([]);
      expect(index.search('create an issue in kotlin').matches).not.toEqual([]);
    });

    it('issue #15: after a channel, a known app written as a name, or no English word, names the app whatever follows', () => {
      // No phrase end after the app: `leaving`, `instead` are no joining words.
      expect(
        index.search(
          'please post the weekly summary message to the channel on Snapchat leaving out the names',
        ).unknownWords,
      ).toEqual(['snapchat']);
      expect(
        index.search(
          'please send the charge reminders to every customer through the Vonage API instead of text',
        ).unknownWords,
      ).toEqual(['vonage']);
      // A known app named with an everyday English word is the app when capitalized as a name,
      // but a quoted word is a value.
      const long =
        'we agreed on the charge so please add a short note about it to our Shortcut workspace under billing';
      expect(index.search(long).unknownWords).toEqual(['shortcut']);
      expect(index.search(long.replace('Shortcut', 'shortcut')).matches).not.toEqual([]);
      expect(index.search(long.replace('Shortcut', "'Shortcut'")).matches).not.toEqual([]);
      // Two words of a place are the place (`Los` is a brand too).
      expect(
        index.search(
          'please send the weather forecast for the city to the channel in Los Angeles every morning',
        ).matches,
      ).not.toEqual([]);
    });

    it('issue #15: a known app where a service is named stops a long query, unless one tool answers most of the rest', () => {
      const catalog = [
        ...CATALOG,
        tool(
          'ads',
          'sync_campaigns',
          'Sync Google Ads and Microsoft Ads campaigns for an online store',
          'store',
        ),
      ];
      const ads = createToolIndex(catalog);
      for (const query of [
        'please attach a short note to the issue on my Trello card through the Trello API',
        'in the Airtable app, please send an alert about the weather and draw shapes on the canvas',
      ]) {
        expect(ads.search(query).unknownWords, query).toEqual(
          ['trello', 'airtable'].filter((app) => query.toLowerCase().includes(app)),
        );
      }
      // One tool holds five of the other words: the task is about the store's data, not the app.
      const task =
        'Can you help me sync my Shopify store with Google Ads and Microsoft Ads campaigns every week?';
      expect(ads.search(task).matches[0]).toBe('mcp__ads__sync_campaigns');
      expect(ads.search(task).unknownWords).toBeUndefined();
    });

    it('issue #15: a preposition or another channel ends the phrase that names the app', () => {
      for (const query of [
        'restart the server on zorblat after the deploy',
        'open an issue on zorblat from the repository',
        'list issues in zorblat by label',
        'post a message with zorblat about the release',
      ]) {
        expect(index.search(query).unknownWords, query).toEqual(['zorblat']);
      }
      // Inside a longer noun it is still what the task is about.
      expect(index.search('draw shapes on zorblat paper after lunch').unknownWords).toBeUndefined();
    });

    it("issue #15: one of English's commonest words ends the phrase of a name, not of an English word", () => {
      for (const query of [
        'create an issue in zorblat when the build fails',
        'post a message on zorblat at noon',
        // Long, so a known app's: no tool answers most of the rest.
        'please post the forecast for the whole team in grafana when the build turns red tonight',
      ]) {
        expect(index.search(query).unknownWords, query).toEqual([
          query.includes('grafana') ? 'grafana' : 'zorblat',
        ]);
      }
      // An English word there may open a longer noun, so it still does not name an app.
      expect(index.search('draw shapes on paper when bored').unknownWords).toBeUndefined();
    });

    it('issue #15: a known app right after an action stops a long query, where its phrase ends', () => {
      const shop = createToolIndex([
        ...CATALOG,
        tool('shop', 'search_products', 'Search products in an online store', 'query'),
        tool('docs', 'search_docs', 'Search the documentation pages', 'query'),
      ]);
      for (const query of [
        'could you please search aliexpress for usb cables under three dollars with free shipping',
        'before the weekend, please search aliexpress and show me the cheapest phone cases you can find',
      ]) {
        expect(shop.search(query).unknownWords, query).toEqual(['aliexpress']);
      }
      // Inside a longer noun it is what the task is about.
      expect(
        shop.search('could you please search shopify themes with a dark style for my online store').matches,
      ).not.toEqual([]);
    });

    it('issue #15: a known app closing a short keyword query is what it is about, not where it runs', () => {
      const maps = createToolIndex([
        ...CATALOG,
        tool('maps', 'geocode_address', 'Convert an address to coordinates', 'address'),
      ]);
      for (const query of ['geocode address openstreetmap', 'forecast weather accuweather']) {
        expect(maps.search(query).unknownWords, query).toBeUndefined();
        expect(maps.search(query).matches, query).not.toEqual([]);
      }
      // Named first, after a channel, as a label or after `to`, it is where the query runs.
      for (const query of [
        'openstreetmap geocode address',
        'geocode address on openstreetmap',
        'geocode address - openstreetmap',
        'send the address to openstreetmap',
      ]) {
        expect(maps.search(query).unknownWords, query).toEqual(['openstreetmap']);
      }
    });

    it('issue #15: a known app named with an English word opens a short query as the app, unless it can be a verb', () => {
      for (const query of [
        'amazon order status',
        'postman collection export',
        'sentry new exceptions last week',
      ]) {
        expect(index.search(query).unknownWords, query).toEqual([query.split(' ')[0]]);
      }
      // A verb opens a request (`ring` is an app too); a longer query is keywords about the thing.
      expect(index.search('ring a customer phone').unknownWords).toBeUndefined();
      // Nor is an inflected English word an app's name (`payments` is on a company list).
      expect(index.search('payments for the customer').unknownWords).toBeUndefined();
      expect(index.search('weather in the amazon rainforest this week').unknownWords).toBeUndefined();
    });

    it('issue #15: a plural English word names no app, where a base-form noun would', () => {
      for (const [query, word] of [
        ['ask teammates to create an issue', 'teammates'],
        ['kindergartens create issue', 'kindergartens'],
      ] as const) {
        const result = index.search(query, { explain: true });
        expect(result.unknownWords, query).toBeUndefined();
        expect(result.matches, query).not.toEqual([]);
        expect(result.explanation?.words.find((fate) => fate.word === word)?.reason, query).toBe(
          'not-in-catalog',
        );
      }
      // `bellows` is a noun as written, `kindergarten` one in its base form: both may name an app.
      for (const [query, word] of [
        ['ask bellows to create an issue', 'bellows'],
        ['kindergarten create issue', 'kindergarten'],
      ] as const) {
        expect(index.search(query).unknownWords, query).toEqual([word]);
      }
    });

    it('issue #15: a query naming an app the catalog holds where a service is named runs there, its other names are data', () => {
      const catalog = [
        ...CATALOG,
        tool('docker-mcp', 'create_container', 'Create and run a Docker container from an image', 'image'),
        tool('git', 'git_log', 'Show the git commit log of a repository', 'repo'),
      ];
      const docker = createToolIndex(catalog);
      const result = docker.search('run an nginx image in docker', { explain: true });
      expect(result.unknownWords).toBeUndefined();
      expect(result.matches[0]).toBe('mcp__docker-mcp__create_container');
      expect(result.explanation?.words.find((fate) => fate.word === 'nginx')?.reason).toBe('name-as-data');
      // Without the installed app, the known app is where it runs; one of the user's services stops it still.
      expect(docker.search('run an nginx image in podman').unknownWords).toEqual(['nginx', 'podman']);
      expect(
        createToolIndex(catalog, { serviceNames: ['nginx'] }).search('run an nginx image in docker').matches,
      ).toEqual([]);
      // A part of a camelCase name is no app named (`git` of `GitLab`).
      expect(docker.search('open a merge request on GitLab').unknownWords).toEqual(['gitlab']);
      // So does a server's own name that no dictionary knows, though no list names the app.
      const market = createToolIndex([
        ...CATALOG,
        tool('kospi-mcp', 'get_market_cap', 'Get the KOSPI market cap of a stock', 'ticker'),
      ]);
      expect(market.search('kospi samsung market cap').matches[0]).toBe('mcp__kospi-mcp__get_market_cap');
      expect(market.search('samsung market cap').matches).toEqual([]);
    });

    it('issue #15: in a long task, a known app after `to`, or before a common word or an action, is where it runs', () => {
      for (const [query, app] of [
        [
          'I just finished the new mix, so please upload it to soundcloud as a private track for the label',
          'soundcloud',
        ],
        ['please place a limit order for half a coin on binance at three thousand dollars today', 'binance'],
      ] as const) {
        expect(index.search(query).unknownWords, query).toEqual([app]);
      }
      // After `to`, a name no list knows is a person.
      expect(
        index.search('please send the weekly forecast to priya as a message for the whole team today')
          .matches,
      ).not.toEqual([]);
      // A channel, an owner, the name and a catalog word, then the action.
      expect(index.search('using the zorblat repository list issues today').unknownWords).toEqual([
        'zorblat',
      ]);
    });

    it('issue #15: a name written as one, before the noun it says the kind of, names a service in a short query', () => {
      for (const query of [
        'post a Zorblat message to the channel',
        'draw the ZorBlat shapes',
        'list the Loom issues',
      ]) {
        const result = index.search(query, { explain: true });
        expect(result.matches, query).toEqual([]);
        expect(Object.values(result.explanation?.whyUnknown ?? {})[0], query).toMatch(
          /written as a name before/,
        );
      }
      for (const query of [
        // In lower case a name before a noun is what the task is about, as before.
        'post a zorblat message to the channel',
        // Part of a longer name, before a phrase's joining word, or in English: not a service.
        'draw Van Gogh shapes on the canvas',
        'post a message about Zorblat in the channel',
        'draw the Roman shapes on the canvas',
        // A long task's capitals are its data.
        'please post a Zorblat message to the channel for the whole team before noon today',
      ]) {
        expect(index.search(query).matches, query).not.toEqual([]);
      }
    });

    it('issue #15: a known app may hold digits (`1Password`, `Neo4j`); other words with digits are numbers or codes', () => {
      for (const [query, app] of [
        ['1password vault item', '1password'],
        ['fetch the api token for the repository from 1Password', '1password'],
        ['neo4j create issue', 'neo4j'],
      ] as const) {
        expect(index.search(query).unknownWords, query).toEqual([app]);
      }
      for (const query of [
        'list issues about p99 latency over 800ms',
        'create issue for the 500s after v2',
      ]) {
        expect(index.search(query).matches, query).not.toEqual([]);
      }
    });

    it('issue #15: reads a known app whose English word is rare as the app where a service is named', () => {
      // `asana`, `loom` are in a dictionary but rare in English (Zipf ≤ 3); `telegram` is not.
      for (const query of ['asana create issue', 'post a message in asana', 'list the issues in my loom']) {
        expect(index.search(query).unknownWords, query).toEqual([query.includes('asana') ? 'asana' : 'loom']);
      }
      expect(index.search('send a telegram message to the team').unknownWords).toBeUndefined();
      // In a known app's frames too: after `to`, the destination, or right after an action.
      for (const query of [
        'which issues were reported according to loom',
        'create issue in loom for the bug',
      ]) {
        const result = index.search(query, { explain: true });
        expect(result.matches, query).toEqual([]);
        expect(result.unknownWords, query).toEqual(['loom']);
        expect(result.explanation?.words.find((w) => w.word === 'loom')?.why, query).toMatch(/known app/);
      }
      // After an owner an English word must name a thing: `interactive` is a brand and an adjective.
      expect(index.search('send an alert to the interactive channel').matches).not.toEqual([]);
      // Anywhere else it is the English word, bridged like any other.
      expect(index.search('draw shapes like a yoga asana on the canvas').matches[0]).toBe(
        'mcp__designer__canvas_draw',
      );
    });

    it('issue #15: reads a typo of an action that opens the query as the action, not an app', () => {
      for (const [query, from, to] of [
        ['craete issue in github', 'craete', 'create'],
        ['lsit issues', 'lsit', 'list'],
        ['craete a charge for the customer', 'craete', 'create'],
      ] as const) {
        const result = index.search(query);
        expect(result.unknownWords, query).toBeUndefined();
        expect(result.corrections, query).toEqual([{ from, to }]);
      }
      // A near-miss before a more common action is still the app's name (`wrike create task`).
      expect(index.search('chargez create issue').unknownWords).toEqual(['chargez']);
    });

    it('issue #15: a camelCase name counts as one word of the query, not as its parts', () => {
      // Ten words as written (`ZorBlat` also gives `zor`, `blat`): short enough for a label to name the app.
      expect(index.search('ZorBlat: list the issues in my repository for the team').unknownWords).toEqual([
        'zorblat',
      ]);
      expect(index.search('MyZorBlat: list the issues in my repository for the team').unknownWords).toEqual([
        'myzorblat',
      ]);
    });

    it('issue #15: an action is a verb that tool descriptions start with, not `this` or `to`', () => {
      const catalog = [
        ...CATALOG,
        tool('notes', 'pin_note', 'This pins a note to the top of a channel', 'note'),
        tool('notes', 'list_notes', 'This lists the notes of a channel', 'channel'),
        tool('notes', 'share_note', 'To share a note, give its id', 'note'),
        tool('notes', 'copy_note', 'To copy a note, give its id', 'note'),
      ];
      const notes = createToolIndex(catalog);
      // An everyday English word first stops a short query only before an action.
      for (const query of [
        'glue this note to the channel',
        'stick this slack message up top',
        'payments to the customer',
      ]) {
        expect(notes.search(query).unknownWords, query).toBeUndefined();
      }
      expect(notes.search('glue create an issue').unknownWords).toEqual(['glue']);
      expect(notes.search('harvest list issues').unknownWords).toEqual(['harvest']);
    });

    it('issue #15: a currency code is what a task is about, never a service', () => {
      const money = createToolIndex([
        ...CATALOG,
        tool('fx', 'exchange_rate', 'Get the exchange rate between two currencies', 'base', 'target'),
      ]);
      for (const query of [
        'usd to eur exchange rate',
        'gbp exchange rate',
        'exchange rate from jpy into chf',
      ]) {
        const result = money.search(query);
        expect(result.unknownWords, query).toBeUndefined();
        expect(result.matches[0], query).toBe('mcp__fx__exchange_rate');
      }
      // A name no list knows still stops it there.
      expect(money.search('exchange rate from zorblat').unknownWords).toEqual(['zorblat']);
    });

    it('issue #15: a stock ticker is what a task is about, never a service', () => {
      const stocks = createToolIndex([
        ...CATALOG,
        tool('finance', 'get_dividends', 'Get the dividends a stock paid', 'symbol'),
      ]);
      expect(stocks.search('msft dividend history').matches[0]).toBe('mcp__finance__get_dividends');
      expect(stocks.search('zorblat dividend history').unknownWords).toEqual(['zorblat']);
    });

    it('issue #15: a phone app written as a name stops the query where a brand would', () => {
      const stays = createToolIndex([
        ...CATALOG,
        tool('calendar', 'create_schedule', 'Create a schedule of recurring events', 'name'),
        tool('hotels', 'change_reservation', 'Change the dates of a hotel reservation', 'reservation_id'),
      ]);
      for (const [query, app] of [
        ['How do I create a heating schedule for the bedroom in Tado?', 'tado'],
        ['How do I change the dates of a reservation on Agoda?', 'agoda'],
        ['change the dates of my reservation with ZOCDOC', 'zocdoc'],
      ] as const) {
        expect(stays.search(query).unknownWords, query).toEqual([app]);
      }
      // A long task's names are its data, unless a list knows the name as an app's.
      const task = (name: string) =>
        `We land in Frankfurt on Monday morning and stay five days, so please change the dates of the hotel reservation with ${name} at the airport branch`;
      expect(stays.search(task('Sixt')).unknownWords).toEqual(['sixt']);
      expect(stays.search(task('Zorblat')).matches[0]).toBe('mcp__hotels__change_reservation');
      // In lower case, the icon pack's name is no more than a name no list knows.
      expect(stays.search('create a schedule for tado').unknownWords).toBeUndefined();
    });

    it('issue #15: a phone app named with an English word is the app only standing alone as a name', () => {
      const shop = createToolIndex([
        ...CATALOG,
        tool('shop', 'search_products', 'Search the products of a store collection', 'query'),
        tool('videos', 'search_videos', 'Search videos about a topic', 'topic'),
      ]);
      expect(
        shop.search(
          'I have a wedding in June, so please browse the new collection at Mango for a summer dress',
        ).unknownWords,
      ).toEqual(['mango']);
      expect(shop.search('browse the new collection at mango for a dress').unknownWords).toBeUndefined();
      // Opening a short query, a rarer English word than the Zipf scale's high-frequency band.
      expect(shop.search('mango summer dress collection').unknownWords).toEqual(['mango']);
      expect(shop.search('coffee products collection').unknownWords).toBeUndefined();
      // One thing of the world (WordNet's `Apollo`) stays a subject.
      expect(
        shop.search('I would like you to find videos related to Apollo missions and the moon landing')
          .matches[0],
      ).toBe('mcp__videos__search_videos');
    });

    it('issue #15: a coin is what a task is about, though the brand lists know its name', () => {
      const coins = createToolIndex([
        ...CATALOG,
        tool('crypto', 'get_price', 'Get the current price of a cryptocurrency', 'coin'),
      ]);
      for (const query of ['bitcoin price', 'ethereum price now', 'solana price today']) {
        expect(coins.search(query).matches[0], query).toBe('mcp__crypto__get_price');
      }
      // A known app that is no coin still stops it.
      expect(coins.search('zendesk price').unknownWords).toEqual(['zendesk']);
      // An app named with an English word of the high-frequency band opens a query as that word.
      expect(coins.search('gold price now').matches[0]).toBe('mcp__crypto__get_price');
      expect(coins.search('postman price now').unknownWords).toEqual(['postman']);
    });

    it('issue #15: a file format is what a task is about, never a service', () => {
      const files = createToolIndex([
        ...CATALOG,
        tool('sheets', 'copy_sheet', 'Copy a sheet of a spreadsheet workbook', 'workbook'),
        tool('compose', 'compose_up', 'Start the services of a compose file', 'file'),
      ]);
      for (const [query, expected] of [
        ['copy the sheet of my xlsx workbook', 'mcp__sheets__copy_sheet'],
        ['copy a spreadsheet sheet in xls', 'mcp__sheets__copy_sheet'],
        ['start the services from yml', 'mcp__compose__compose_up'],
      ] as const) {
        const result = files.search(query);
        expect(result.unknownWords, query).toBeUndefined();
        expect(result.matches[0], query).toBe(expected);
      }
      // A name that is no format still stops it there.
      expect(files.search('start the services from zorblat').unknownWords).toEqual(['zorblat']);
    });

    it('issue #15: never stops a query for a service the catalog has, however it is phrased', () => {
      const present = createToolIndex([
        ...CATALOG,
        tool('notion', 'query_database', 'Query a Notion database with filters', 'database_id'),
        tool('cloudflare', 'purge_cache', 'Purge cached files of a Cloudflare zone', 'zone_id'),
      ]);
      for (const query of [
        'create issue in github',
        'GitHub: open a new issue',
        'open an issue on my github repository',
        'send a slack message',
        'post to slack',
        'in slack, send a message to the team',
        'query my notion database',
        'notion database query',
        'using the Notion API, query the tasks database for this week',
        'purge the cloudflare cache',
        'cloudflare purge cache for my zone',
      ]) {
        const result = present.search(query);
        expect(result.unknownWords, query).toBeUndefined();
        expect(result.matches, query).not.toEqual([]);
      }
    });

    it('issue #15: reads a name after `have` as one in use (`we have zorblat. list issues`)', () => {
      expect(index.search('we have zorblat. list issues').unknownWords).toEqual(['zorblat']);
      expect(index.search('we have harvest. list issues').unknownWords).toEqual(['harvest']);
      expect(index.search('we have harvest season issues to list').matches).not.toEqual([]);
    });

    describe('issue #15: a known app the catalog holds only as words', () => {
      const held = createToolIndex([
        ...CATALOG,
        tool('procs', 'kill_process', 'Send a termination signal to a process', 'pid'),
        tool('stats', 'fit_model', 'Fit a linear model to the data points', 'points'),
        tool('models', 'run_phi', 'Run the microsoft phi model on a prompt', 'prompt'),
        tool('github', 'list_teams', 'List the teams of an organization', 'org'),
        tool('web', 'web_search', 'Search the web with google', 'query'),
        tool('files', 'list_docs', 'List docs in a folder', 'folder'),
        tool('social', 'post_tweet', 'Post a short update on Twitter for the account', 'text'),
        tool('travel', 'search_hotels', 'Search hotels by city for a booking', 'city'),
      ]);
      const whyUnknown = (query: string) =>
        held.search(query, { explain: true }).explanation?.whyUnknown ?? {};

      it('stops where a service is named on a known app no server, tool name or capitalized mention holds', () => {
        // `signal` and `linear` are only words here (a process signal, a linear model).
        expect(whyUnknown('signal send message')).toEqual({
          signal:
            'a known app no installed tool is named for, where a service is named: as the first word of a short query, before the action "send"',
        });
        expect(held.search('create an issue in Linear for the web team').matches).toEqual([]);
        expect(held.search('what issues are open for my team on Linear?').matches).toEqual([]);
        for (const query of [
          // In lower case, an English word is the word unless it opens a short query before an action.
          'send a signal to the process',
          'fit a linear model to the points',
          // A description that writes the app as a name holds it: `… on Twitter`.
          'post an update on Twitter',
        ]) {
          expect(held.search(query).matches, query).not.toEqual([]);
        }
      });

      it('stops on a two-word app no tool holds as a phrase, though each word is held', () => {
        expect(whyUnknown('google docs create document')).toEqual({
          google: '"google docs", a known app no tool holds, in a short query',
          docs: '"google docs", a known app no tool holds, in a short query',
        });
        expect(held.search('Send a message to the team in Microsoft Teams').matches).toEqual([]);
        // Two common English words of a listed app, both written as names (`Apple Music`, `New Relic`).
        const words = createToolIndex([
          ...CATALOG,
          tool('media', 'play_track', 'Play a music track from a playlist', 'track'),
          // It writes `Apple` as a name: `apple` alone is then no absent app.
          tool('garden', 'pick_fruit', 'Pick an Apple from the tree', 'tree'),
        ]);
        const update = (app: string) =>
          `Once the forecast is out, draw a shape and play the new track in ${app} for the team`;
        expect(words.search(update('Apple Music')).matches).toEqual([]);
        // In lower case only where a channel frames it: elsewhere two common words are two words.
        expect(words.search(update('apple music')).matches).toEqual([]);
        expect(words.search('play the apple music track from the playlist').matches).not.toEqual([]);
        for (const query of [
          // A known app the catalog holds as a word, where no service is named, is that word.
          'run the microsoft phi model',
          // A place is what the task is about (`San Francisco`), and two common words a thing's name.
          'search hotels in San Francisco',
        ]) {
          expect(held.search(query).matches, query).not.toEqual([]);
        }
        const docs = createToolIndex([
          tool('gdrive', 'export_doc', 'Export a Google Docs file as a PDF', 'file'),
        ]);
        expect(docs.search('export google docs file').matches).toEqual(['mcp__gdrive__export_doc']);
      });

      it('reads two words no tool holds as the app the lists name with both', () => {
        // Alone, `firefly` is an English word and `iii` a numeral: neither says the app.
        expect(whyUnknown('firefly iii create issue')).toEqual({
          firefly: '"firefly iii", a known app no tool holds, in a short query',
          iii: '"firefly iii", a known app no tool holds, in a short query',
        });
        expect(
          held.search(
            'Once the forecast is out, open an issue about the flaky login test in Invoice Ninja and draw a shape.',
          ).unknownWords,
        ).toEqual(['invoice', 'ninja']);
      });

      it('reads a listed two-word app as the app though one of its words is a place (`Wells Fargo`)', () => {
        // `fargo` alone is a city; the lists name the bank with both words.
        expect(held.search('wells fargo send message').matches).toEqual([]);
        expect(held.search('send a message with wells fargo').matches).toEqual([]);
        expect(held.search('weather forecast for fargo').matches).not.toEqual([]);
      });

      it('reads a listed two-word app of everyday words as the app opening a short query before an action', () => {
        expect(whyUnknown('actual budget list issues')).toEqual({
          actual: '"actual budget", a known app no tool holds, in a short query',
          budget: '"actual budget", a known app no tool holds, in a short query',
        });
        // Not before words that are no action: two common words may be a thing's name.
        expect(held.search('actual budget issues').matches).not.toEqual([]);
      });

      it('reads a listed two-word app of everyday words as the app after a channel where its phrase ends, or as an account', () => {
        expect(held.search('list the open issues in actual budget').matches).toEqual([]);
        expect(held.search('add a team to my american express account').matches).toEqual([]);
        expect(held.search('list the open issues in actual budget terms').matches).not.toEqual([]);
      });

      it("reads one app's name split in two words as the app", () => {
        expect(held.search('How many answers came in on Survey Monkey today?').matches).toEqual([]);
        expect(held.search('list the droplets in my Digital Ocean account').matches).toEqual([]);
        // In lower case two everyday words are two words (`work day`, not Workday).
        expect(held.search('send the message every work day').matches).not.toEqual([]);
      });

      it('reads an app named by its domain as the app, not as an address', () => {
        expect(whyUnknown('booking.com hotel search')).toEqual({
          booking: '"booking.com", a known app no tool holds, named by its domain as the first word',
          com: '"booking.com", a known app no tool holds, named by its domain as the first word',
        });
        expect(held.search('cancel my booking.com reservation').matches).toEqual([]);
        const booking = createToolIndex([
          tool('travel', 'search_hotels', 'Search hotels on Booking.com', 'city'),
        ]);
        expect(booking.search('booking.com hotel search').matches).toEqual(['mcp__travel__search_hotels']);
        // A domain that is no app's name is still an address (`stripe.com`: the app is `Stripe`).
        expect(held.search('search hotels near stripe.com offices').matches).not.toEqual([]);
      });
    });

    it('says in the explanation why each word was read as an absent app', () => {
      const why = (query: string) => index.search(query, { explain: true }).explanation?.whyUnknown;
      expect(why('create an issue in zorblat')).toEqual({
        zorblat: 'a name no dictionary knows, where a service is named: after "in", where its phrase ends',
      });
      expect(why('harvest list issues')).toEqual({
        harvest:
          'an everyday English word, where a service is named: as the first word of a short query, before the action "list"',
      });
      expect(why('send a message with jira')).toEqual({
        jira: 'a known app (simple-icons, cspell company and software lists) that no installed tool mentions',
      });
      expect(why('chargez create issue')).toEqual({
        chargez:
          'one letter from "charge", but where a service is named: as the first word of a short query, before the action "create"',
      });
      expect(why('ask zorblat to list issues')).toEqual({
        zorblat: 'a name no dictionary knows, where a service is named: in "ask … to"',
      });
      expect(why('weather forecast for a city')).toEqual({});
    });

    it('reads a place, a language or a day where a service would stand as what the task is about', () => {
      for (const query of [
        'weather forecast in paris',
        'weather forecast in canberra',
        'weather forecast in texas',
        'london weather forecast',
        'post a message in french',
        'create an issue in rust',
        'post a message on saturday',
      ]) {
        const result = index.search(query);
        expect(result.matches, query).not.toEqual([]);
        expect(result.unknownWords ?? [], query).toEqual([]);
      }
      // Any other name in that position is still read as the service the task should run in.
      expect(index.search('weather forecast in zorblat').matches).toEqual([]);
    });

    it('reads an English word that tools hold only in longer forms as a name where a service is named, not an inflection', () => {
      // Tools say `recurring`, never `recur`; `messages` is only a plural of the held `message`.
      expect(index.search('create a charge through recur').unknownWords).toEqual(['recur']);
      expect(index.search('post an alert through messages').matches).toContain('mcp__slack__send_message');
    });

    it('reads an unknown word held only through its stem as a name where a service is named', () => {
      // `recurly` stems like `recurring`, but no tool says it, and it is no typo of a tool's word.
      expect(index.search('use recurly to create a charge').unknownWords).toEqual(['recurly']);
      expect(index.search('create a recurly charge').matches[0]).toBe('mcp__billing__create_charge');
    });
  });

  describe('typo correction', () => {
    it('corrects a word one edit from a catalog word and says so', () => {
      const result = index.search('github create isue');
      expect(result.matches[0]).toBe('mcp__github__create_issue');
      expect(result.corrections).toEqual([{ from: 'isue', to: 'issue' }]);
      expect(index.search('github craete issue').corrections).toEqual([{ from: 'craete', to: 'create' }]);
    });

    it('never changes the first letter, nor produces a word shorter than five letters', () => {
      const result = index.search('github create xssue', { explain: true });
      expect(result.corrections).toBeUndefined();
      expect(result.explanation?.ignoredWords).toEqual(['xssue']);
      expect(index.search('weather forecast cty').corrections).toBeUndefined();
    });

    it('reads a near-miss where a service is named as the service, unless it corrects to a server', () => {
      // `charge` is a catalog word; `chargez` first before an action, or last after `in`, names an
      // app that is not installed, and so does `chargs`, which even shares its stem. `githb` is one
      // edit from the server `github`.
      for (const query of [
        'chargez create issue',
        'create an issue in chargez',
        'list issues via chargez',
        'chargs create issue',
      ]) {
        const result = index.search(query);
        expect(result.matches, query).toEqual([]);
        expect(result.corrections, query).toBeUndefined();
      }
      expect(index.search('create an issue in githb').corrections).toEqual([{ from: 'githb', to: 'github' }]);
      expect(index.search('githb create issue').matches[0]).toBe('mcp__github__create_issue');
      // Anywhere else it is a typo as before.
      expect(index.search('create a chargez for a customer').corrections).toEqual([
        { from: 'chargez', to: 'charge' },
      ]);
    });

    it('leaves correct searches alone', () => {
      expect(index.search('github create issue').corrections).toBeUndefined();
    });

    it('issue #15: a word shorter than five letters is corrected only by swapping two neighbours', () => {
      // `psot` → `post` swaps `s` and `o`; `pist` is one replaced letter from it, and `sned`, a swap
      // of `send`, is an English word (a scythe's handle), so neither is a typo.
      expect(index.search('psot a message in the channel').corrections).toEqual([
        { from: 'psot', to: 'post' },
      ]);
      expect(index.search('pist a message in the channel').corrections).toBeUndefined();
      expect(index.search('sned an alert').corrections).toBeUndefined();
    });
  });

  describe('ranking', () => {
    it('splits camelCase and keeps the whole word', () => {
      expect(index.search('pager duty alert').matches[0]).toBe('mcp__pager__notify');
      expect(index.search('pagerduty').matches).toEqual(['mcp__pager__notify']);
    });

    it('prefers the tool whose name the query says over near-duplicates', () => {
      const { explanation } = index.search('github list issues', { explain: true });
      expect(explanation?.matches[0]?.name).toBe('mcp__github__list_issues');
      expect(explanation?.matches[0]?.nameMatch).toBe(1);
      // × (1 + 1 × its name match 1) × (1 + 0.5 × its share of the query's words, all three).
      expect(explanation?.matches[0]?.score).toBeCloseTo(3 * (explanation?.matches[0]?.bm25 ?? 0), 12);
    });

    it('issue #15: in a short query, prefers the tool holding more of its words to one holding a rare word often', () => {
      // `branch` says one word three times in a short text and its name; `checkout` says the
      // query's three chosen words once each in a longer one.
      const git = [
        tool('git', 'branch', 'Branch: list, create or delete a branch', 'branch'),
        tool(
          'git',
          'checkout',
          'Switch the working tree of the repository to another branch, so that the files on disk locally match what that branch holds',
          'target',
        ),
        tool('files', 'copy_file', 'Copy a file to another folder', 'path'),
        tool('web', 'save_page', 'Save a web page locally', 'url'),
        tool('shell', 'run', 'Run a command locally', 'command'),
        tool('files', 'read_file', 'Read a file from disk', 'path'),
      ];
      const short = 'go to another branch locally';
      expect(createToolIndex(git).search(short).matches[0]).toBe('mcp__git__checkout');
      expect(createToolIndex(git, { wordCoverageBoost: 0 }).search(short).matches[0]).toBe(
        'mcp__git__branch',
      );
      // A long request carries incidental words: the best by BM25 and name match stays first.
      const long = 'could you please go over to another branch locally right now';
      expect(createToolIndex(git).search(long).matches[0]).toBe('mcp__git__branch');
    });

    it('issue #15: a name word begun by a query word of four letters or more, or beginning one, counts as said', () => {
      // The same text twice: BM25 ties, and catalog order would put `Clock` first.
      const twins = createToolIndex([
        tool('metatool', 'Clock', 'Tells the current hour anywhere'),
        tool('metatool', 'timemachine', 'Tells the current hour anywhere'),
        tool('metatool', 'FinanceTool', 'Stock quotes and market updates in real time'),
        tool('parking', 'carpark', 'Free spaces near you'),
        tool('news', 'headlines', 'Financial and world headlines'),
      ]);
      const match = (query: string, name: string) =>
        twins.search(query, { explain: true, limit: 10 }).explanation?.matches.find((m) => m.name === name);
      // `timemachine` begins with `time`; `financial` (stem `financi`) begins with `FinanceTool`'s `financ`.
      expect(twins.search('current hour time').matches[0]).toBe('mcp__metatool__timemachine');
      expect(match('current hour time', 'mcp__metatool__timemachine')?.nameMatch).toBe(0.5);
      expect(match('financial stock updates', 'mcp__metatool__FinanceTool')?.nameMatch).toBeCloseTo(
        1 / 3,
        12,
      );
      // Three letters are too few (`car` of `carpark`), and a word the query does not say fully
      // (`time`, a common word, at half weight in six words) matches no prefix.
      expect(match('car spaces', 'mcp__parking__carpark')?.nameMatch).toBe(0);
      expect(match('tell me the current hour time', 'mcp__metatool__timemachine')?.nameMatch).toBe(0);
    });

    it('scores a long query on its most specific terms only', () => {
      const few = createToolIndex(CATALOG, { maxQueryTerms: 2 });
      const { explanation } = few.search('post a message into a channel in the repository', {
        explain: true,
      });
      const answerable = explanation?.answerableTerms ?? [];
      const unscored = explanation?.unscoredTerms ?? [];
      expect(answerable.length).toBeGreaterThan(2);
      expect(unscored).toHaveLength(answerable.length - 2);
      for (const match of explanation?.matches ?? []) {
        for (const term of Object.keys(match.terms)) expect(unscored).not.toContain(term);
      }
      expect(unscored).toContain('a');
    });

    it('scores a stem once however often the query says it, unless asked to count repeats', () => {
      const once = index.search('github issue issues', { explain: true }).explanation!;
      const plain = index.search('github issue', { explain: true }).explanation!;
      expect(once.matches[0]!.bm25).toBe(plain.matches[0]!.bm25);
      const counted = createToolIndex(CATALOG, { countRepeatedTerms: true }).search('github issue issues', {
        explain: true,
      }).explanation!;
      expect(counted.matches[0]!.bm25).toBeGreaterThan(plain.matches[0]!.bm25);
    });

    it('does not count a split name given whole as one of its words', () => {
      const tools = createToolIndex([
        tool('x', 'NewsTool', 'Stay up to date'),
        tool('x', 'news_tool', 'Stay'),
      ]);
      const matches = tools.search('news', { explain: true }).explanation!.matches;
      // `NewsTool` is `news` + `tool` (+ `newstool` for search), as `news_tool` is: with the server
      // `x`, the query says a third of either name.
      expect(matches.map((match) => match.nameMatch)).toEqual([1 / 3, 1 / 3]);
    });

    it('issue #15: counts a split camelCase name given whole at half a word of its length', () => {
      const tools = createToolIndex([
        tool('x', 'create_issue_now', 'Open it'),
        tool('x', 'createIssue', 'Open it'),
      ]);
      // `createIssue` is `create` + `issue` + `createissue`: 2.5 words long, not 3 as `create_issue_now`.
      const bm25 = Object.fromEntries(
        tools
          .search('issue', { explain: true })
          .explanation!.matches.map((match) => [match.name, match.bm25]),
      );
      expect(bm25.mcp__x__createIssue).toBeGreaterThan(bm25.mcp__x__create_issue_now!);
    });

    // Four near-equal tools of one server: the fourth is past the cap.
    const fourOfOneServer = ['one', 'two', 'three', 'four'].map((n) =>
      tool('api', `issue_${n}`, 'issue issue'),
    );

    it('keeps at most three tools of one server first, unless the query says the server', () => {
      const entries = [...fourOfOneServer, tool('other', 'issue_tracker', 'issue issue')];
      const many = createToolIndex(entries);
      expect(many.search('issue', { limit: 5 }).matches).toEqual([
        'mcp__api__issue_one',
        'mcp__api__issue_two',
        'mcp__api__issue_three',
        'mcp__other__issue_tracker',
        'mcp__api__issue_four',
      ]);
      expect(many.search('api issue', { limit: 4 }).matches).not.toContain('mcp__other__issue_tracker');
      expect(createToolIndex(entries, { maxPerServer: 0 }).search('issue', { limit: 5 }).matches[3]).toBe(
        'mcp__api__issue_four',
      );
    });

    it("issue #15: puts a capped server's tool behind another server's only when that one scores near it", () => {
      const entries = [...fourOfOneServer, tool('other', 'tracker', 'Track an issue')];
      const result = createToolIndex(entries).search('issue', { limit: 5, explain: true });
      const scores = result.explanation?.matches?.map((match) => match.score) ?? [];
      // The tracker scores under half of issue_four: a far weaker answer does not jump the queue.
      expect(scores[4]).toBeLessThan(0.7 * scores[3]!);
      expect(result.matches.slice(3)).toEqual(['mcp__api__issue_four', 'mcp__other__tracker']);
    });

    it('issue #15: does not cap a server named by a word of its id that names it alone, typo corrected', () => {
      const entries = [
        ...['delete', 'complete', 'info', 'add'].map((action) =>
          tool('teamchat-web-api', `reminders_${action}`, `Teamchat: ${action} a reminder`),
        ),
        tool('notes', 'NotesTool', 'Notes: set a reminder'),
        tool('cloud-api', 'remind_one', 'Cloud reminder'),
        tool('cloud-api', 'remind_two', 'Cloud reminder'),
        tool('cloud-api', 'remind_three', 'Cloud reminder'),
        tool('cloud-api', 'remind_four', 'Cloud reminder'),
        tool('cloud-docs', 'remind_docs', 'Cloud docs reminder'),
      ];
      const chat = (query: string) =>
        createToolIndex(entries.slice(0, 5))
          .search(query, { limit: 4 })
          .matches.filter((name) => name.includes('teamchat')).length;
      // `teamchat` is in one server's id only, and every tool holding it is that server's.
      expect(chat('remind me in teamchat')).toBe(4);
      expect(chat('remind me in taemchat')).toBe(4);
      expect(chat('remind me')).toBe(3);
      // `cloud` is in two servers' ids: it names neither, so the cap stays.
      expect(
        createToolIndex(entries.slice(5))
          .search('cloud reminder', { limit: 4 })
          .matches.filter((name) => name.includes('cloud-api')),
      ).toHaveLength(3);
    });

    it('adds synonyms at a lower weight when asked', () => {
      const synonyms = createToolIndex(CATALOG, { synonyms: [['post', 'publish']] });
      // No tool says `publish`; its synonym `post` is found at half weight.
      const { explanation } = synonyms.search('publish message', { explain: true });
      expect(explanation?.matches[0]?.name).toBe('mcp__slack__send_message');
      expect(Object.keys(explanation?.matches[0]?.terms ?? {})).toContain('post');
    });
  });

  describe('issue #15: reading long and short queries', () => {
    // A terse API catalog where conversational words are rare: the tools that hold them must not
    // win on them.
    const TERSE: IndexEntry[] = [
      tool('football', 'player_transfers', 'Transfers of a football player', 'player'),
      tool('football', 'club_managers', 'Managers of a football club', 'club'),
      tool('helpdesk', 'help_me', 'Help me with my account, would you', 'q'),
      tool('genes', 'mRNA2DNA', 'Convert an mRNA sequence to DNA', 'sequence'),
      tool('mail', 'send_email', 'Send an email to an address', 'to'),
      tool('dns', 'whois', 'Look up who owns a domain', 'domain'),
    ];
    const terse = createToolIndex(TERSE);

    it("scores a long task on its own words, not on English's commonest words", () => {
      const query =
        "I'm a football fan and I would like you to help me with the transfers of a player and the managers of his club";
      const { matches, explanation } = terse.search(query, { explain: true });
      expect(matches.slice(0, 2).sort()).toEqual([
        'mcp__football__club_managers',
        'mcp__football__player_transfers',
      ]);
      expect(matches).not.toContain('mcp__genes__mRNA2DNA');
      const fate = (word: string) => explanation?.words.find((w) => w.word === word);
      expect(fate('would')).toMatchObject({ fate: 'dropped' });
      expect(fate('would')?.why).toMatch(/commonest English words/);
      expect(fate('transfers')).toMatchObject({ fate: 'kept', why: 'scored' });
      expect(explanation?.unscoredTerms).toEqual(expect.arrayContaining(['would', 'you', 'me']));
    });

    it('keeps every word of a short query, and of a query made only of common words', () => {
      expect(terse.search('help me', { explain: true }).explanation?.unscoredTerms).toEqual([]);
      expect(terse.search('would you help me with my account please', { explain: true }).matches[0]).toBe(
        'mcp__helpdesk__help_me',
      );
    });

    it('issue #15: scores the commonest words of a five- to seven-word query at half weight, not dropping them', () => {
      const tools = createToolIndex([
        tool('pages', 'list_pages', 'List every page', 'site'),
        tool('browser', 'screenshot', 'Take a screenshot of the page', 'selector'),
      ]);
      // `take` is the request here: left out, `page` alone would rank the shorter text first.
      const short = tools.search('take a picture of the page', { explain: true });
      expect(short.matches[0]).toBe('mcp__browser__screenshot');
      const take = short.explanation?.words.find((w) => w.word === 'take');
      expect(take).toMatchObject({ fate: 'kept', reason: 'common-english' });
      expect(take?.why).toMatch(/scored at 0.5 of a word/);
      expect(short.explanation?.unscoredTerms).toEqual([]);
      // Past seven words a long request's commonest words are its filler, and are left out.
      const long = tools.search('could you please take a picture of the page for me', { explain: true });
      expect(long.explanation?.words.find((w) => w.word === 'take')).toMatchObject({
        fate: 'dropped',
        reason: 'common-english',
      });
    });

    it("never reads I'm as the word m", () => {
      const { explanation } = terse.search("I'm trying to convert things", { explain: true });
      expect(explanation?.words.map((w) => w.word)).toEqual(['trying', 'to', 'convert', 'things']);
    });

    it('reads a service named inside an e-mail address or a domain as data, not as a request for it', () => {
      for (const query of [
        'send an email to jo.smith@hotmail.com',
        'who owns stripe.com',
        'who owns https://www.zoho.com/crm',
      ]) {
        const result = terse.search(query, { explain: true });
        expect(result.unknownWords, query).toBeUndefined();
        expect(result.matches.length, query).toBeGreaterThan(0);
        const inAddress = result.explanation?.words.filter((w) =>
          w.why.startsWith('inside an e-mail or web'),
        );
        expect(inAddress?.length, query).toBeGreaterThan(0);
      }
      // The same service asked for, not inside an address, still stops the query.
      expect(terse.search('send an email with hotmail').unknownWords).toEqual(['hotmail']);
      // A file name is not a domain.
      expect(
        terse
          .search('convert report.pdf', { explain: true })
          .explanation?.words.find((w) => w.word === 'report')?.why,
      ).not.toMatch(/address/);
    });

    it('reads a known app right after `of` as what a noun is of, not as where it runs', () => {
      expect(index.search('list the issue types of hubspot').matches[0]).toBe(
        'mcp__github__list_issue_types',
      );
      expect(index.search('list the issue types of the hubspot').unknownWords).toBeUndefined();
      expect(index.search('hubspot issue types').unknownWords).toEqual(['hubspot']);
    });

    it('reads a name no tool writes inside a path or an owner/name pair as data', () => {
      const result = index.search('list issues in hubspot/widgets', { explain: true });
      expect(result.unknownWords).toBeUndefined();
      expect(result.matches[0]).toBe('mcp__github__list_issues');
      expect(result.explanation?.words.find((w) => w.word === 'hubspot')?.why).toMatch(/inside a path/);
      // Alone, the same name stops the query.
      expect(index.search('list issues in hubspot').unknownWords).toEqual(['hubspot']);
    });

    it('explains every word: kept, dropped and why, corrected to what, unknown', () => {
      const { explanation } = index.search('please create a new isue in jira for the team', {
        explain: true,
      });
      const byWord = Object.fromEntries((explanation?.words ?? []).map((w) => [w.word, w]));
      expect(byWord.jira).toMatchObject({ fate: 'unknown' });
      expect(byWord.isue).toMatchObject({ fate: 'kept', correctedTo: 'issue' });
      expect(byWord.the).toMatchObject({ fate: 'dropped' });
      expect(explanation?.words).toHaveLength(10);
    });

    it('issue #15: names each fate with a reason code, and each related word with its source', () => {
      const reasons = (query: string, options?: Parameters<typeof createToolIndex>[1]) =>
        Object.fromEntries(
          (createToolIndex(TERSE, options).search(query, { explain: true }).explanation?.words ?? []).map(
            (w) => [w.word, w.reason],
          ),
        );
      expect(
        reasons('would you send an email to jo@hotmail.com about the transfers transfers'),
      ).toMatchObject({
        would: 'common-english',
        send: 'scored',
        hotmail: 'address',
        transfers: 'repeated',
      });
      expect(reasons('send 42 emails to kristiansand about xq')).toMatchObject({
        '42': 'filler',
        xq: 'filler',
      });
      expect(reasons('send emial')).toMatchObject({ emial: 'corrected' });
      expect(reasons('send email via zorblat')).toMatchObject({ zorblat: 'absent-service' });
      expect(reasons('player transfers club managers email domain', { maxQueryTerms: 2 })).toMatchObject({
        email: 'over-term-budget',
      });
      const synonyms = createToolIndex(TERSE, { synonyms: [['mail', 'post']] }).search('post a letter', {
        explain: true,
      });
      // `post` is in no tool: the synonyms option and WordNet both bridge it, each named.
      const post = synonyms.explanation?.words.find((w) => w.word === 'post');
      expect(post?.expandedTo).toContainEqual({
        word: 'mail',
        stem: 'mail',
        weight: 0.5,
        source: 'synonyms-option',
      });
      expect(post?.expandedTo).toContainEqual({
        word: 'send',
        stem: 'send',
        weight: 0.4,
        source: 'wordnet-synonym',
      });
    });
  });

  describe("issue #15: parameters' descriptions", () => {
    const described = (
      server: string,
      name: string,
      description: string,
      parameters: Record<string, string>,
    ): IndexEntry => ({
      name: `mcp__${server}__${name}`,
      server,
      description,
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(
          Object.entries(parameters).map(([key, text]) => [key, { type: 'string', description: text }]),
        ),
      },
    });
    const REPOS: IndexEntry[] = [
      described('github', 'create_pull_request', 'Create a new pull request', {
        head: 'The branch where your changes are implemented',
        base: 'The branch you want the changes pulled into',
      }),
      described('github', 'get_commit', 'Get a commit', { sha: 'Commit SHA' }),
      described('docs', 'get_library_docs', 'Fetch documentation for a library', {
        id: 'The library ID, e.g. "vercel/ai" or "mongodb/docs"',
      }),
      described('schema', 'update_widget', 'Update a widget', {
        config: `${'Widget settings in full detail. '.repeat(10)}Uses the marmalade engine.`,
      }),
    ];
    const repos = createToolIndex(REPOS);

    it('scores the words of a parameter description, below the description', () => {
      expect(repos.search('propose my branch changes', { limit: 1 }).matches).toEqual([
        'mcp__github__create_pull_request',
      ]);
      expect(
        createToolIndex(REPOS, { fieldWeights: { parameterDescriptions: 0 } }).search('branch').matches,
      ).toEqual([]);
    });

    it('reads only their first 40 words', () => {
      expect(repos.search('marmalade').matches).toEqual([]);
      expect(repos.search('widget settings detail', { limit: 1 }).matches).toEqual([
        'mcp__schema__update_widget',
      ]);
    });

    it('does not count a service they cite as installed', () => {
      const result = repos.search('vercel delete record');
      expect(result.matches).toEqual([]);
      expect(result.unknownWords).toEqual(['vercel']);
    });

    describe('but a name the tools answering the rest cite, themselves or as many of their server, is their data', () => {
      const CODE: IndexEntry[] = [
        ...REPOS,
        described('quiz', 'get_daily_challenge', 'Get the daily challenge', {}),
        described('quiz', 'get_contest_details', 'Get the details of a contest', {
          slug: 'The contest slug',
        }),
        described('quiz', 'get_user_profile', 'Get a user profile', { username: 'Quizcode username' }),
        described('quiz', 'get_user_submissions', 'List the recent submissions of a user', {
          username: 'Quizcode username',
        }),
        // One tool of many cites it: the server is about something else.
        ...Array.from({ length: 12 }, (_, i) =>
          described('cloud', `zone_setting_${i}`, `Change zone setting ${i}`, {}),
        ),
        described('cloud', 'delete_dns_record', 'Delete a DNS record', {}),
        described('cloud', 'create_identity_provider', 'Create an identity provider', {
          type: 'The kind of provider, e.g. quizmo or github',
        }),
      ];
      const code = createToolIndex(CODE);

      it('runs with the name scored when an answer or a fifth of its server cites it', () => {
        expect(code.search('quizcode user submissions').matches[0]).toBe('mcp__quiz__get_user_submissions');
        expect(code.search('quizcode daily challenge').matches[0]).toBe('mcp__quiz__get_daily_challenge');
        const fate = code
          .search('quizcode contest details', { explain: true })
          .explanation?.words.find((word) => word.word === 'quizcode');
        expect(fate).toMatchObject({ fate: 'kept', reason: 'cited-by-answers' });
      });

      it('still stops when other tools answer, or one tool of a large server cites it', () => {
        expect(code.search('quizcode delete dns record').unknownWords).toEqual(['quizcode']);
        expect(code.search('quizmo delete dns record').unknownWords).toEqual(['quizmo']);
      });
    });
  });

  describe("issue #15: bridges to the catalog's own names", () => {
    // Tools named `update_…` say "edit" in their text: in this catalog, editing is updating.
    const CHAT: IndexEntry[] = [
      tool('chat', 'message_pin', 'Pins a message.'),
      tool('chat', 'message_update', 'Updates a message.'),
      tool('chat', 'update_topic', 'Edit the channel topic'),
      tool('chat', 'update_profile', 'Edit a user profile'),
      tool('files', 'update_file', 'Update a file: edit its text'),
      ...[
        'list_files',
        'read_file',
        'send_email',
        'move_file',
        'get_weather',
        'search_web',
        'create_event',
      ].map((name) => tool('misc', name, `${name.replace('_', ' ')} for you`)),
      ...['list_users', 'get_user', 'create_user', 'delete_user', 'find_place', 'get_time', 'add_note'].map(
        (name) => tool('more', name, `${name.replace('_', ' ')} quickly`),
      ),
    ];

    it('re-ranks by an action the tools saying the word are named with, and finds no tool by it', () => {
      const bridged = createToolIndex(CHAT).search('edit message', { explain: true, limit: 50 });
      const plain = createToolIndex(CHAT, { nameBridgeWeight: 0 }).search('edit message', { limit: 50 });
      // Without the bridge the two message tools tie and keep catalog order.
      expect(plain.matches.slice(0, 2)).toEqual(['mcp__chat__message_pin', 'mcp__chat__message_update']);
      expect(bridged.matches.slice(0, 2)).toEqual(['mcp__chat__message_update', 'mcp__chat__message_pin']);
      expect([...bridged.matches].sort()).toEqual([...plain.matches].sort());
      const edit = bridged.explanation?.words.find((word) => word.word === 'edit');
      // The query's action (among its first three words) weighs as a WordNet synonym; a later word, as a bridge.
      expect(edit?.expandedTo).toContainEqual({
        word: 'updat',
        stem: 'updat',
        weight: 0.4,
        source: 'catalog-names',
      });
      const later = createToolIndex(CHAT).search('a pinned message edit', { explain: true });
      expect(later.explanation?.words.find((word) => word.word === 'edit')?.expandedTo).toContainEqual({
        word: 'updat',
        stem: 'updat',
        weight: 0.15,
        source: 'catalog-names',
      });
      // It adds no BM25 score.
      const update = bridged.explanation?.matches.find((match) => match.name === 'mcp__chat__message_update');
      expect(update?.terms.updat).toBeUndefined();
    });
  });

  describe('issue #15: related words from WordNet', () => {
    const CALLS: IndexEntry[] = [
      tool('voice', 'place_call', 'Place a phone call to a number', 'number'),
      tool('files', 'delete_file', 'Delete a file', 'path'),
      tool('files', 'read_file', 'Read a file', 'path'),
    ];
    const calls = createToolIndex(CALLS);

    it('bridges a word no tool holds to the catalog words WordNet relates to it, below the query words', () => {
      const { matches, explanation } = calls.search('ring the office', { explain: true });
      expect(matches[0]).toBe('mcp__voice__place_call');
      const ring = explanation?.words.find((word) => word.word === 'ring');
      expect(ring?.fate).toBe('kept');
      expect(ring).toMatchObject({ reason: 'related-words' });
      expect(ring?.expandedTo).toContainEqual({
        word: 'call',
        stem: 'call',
        weight: 0.4,
        source: 'wordnet-synonym',
      });
      // `call` said outright scores more than `call` reached from `ring`.
      const direct = calls.search('call the office', { explain: true }).explanation!.matches[0]!;
      expect(explanation!.matches[0]!.terms.call).toBeLessThan(direct.terms.call!);
      expect(calls.search('erase a file').matches[0]).toBe('mcp__files__delete_file');
    });

    it("bridges the verb a request opens with, though held, to its synonyms that are the catalog's actions", () => {
      const CHAT: IndexEntry[] = [
        tool('chat', 'create_channel', 'Create a channel for a team', 'name'),
        tool('chat', 'create_message', 'Create a message in a channel', 'text'),
        tool('chat', 'archive_channel', 'Archive a channel for a team', 'channel'),
        tool('kitchen', 'make_coffee', 'Make a cup of coffee', 'size'),
      ];
      const { matches, explanation } = createToolIndex(CHAT).search('make a channel', { explain: true });
      expect(explanation?.words[0]?.expandedTo).toEqual([
        { word: 'create', stem: 'creat', weight: 0.4, source: 'wordnet-synonym' },
      ]);
      expect(matches.indexOf('mcp__chat__create_channel')).toBeLessThan(
        matches.indexOf('mcp__chat__archive_channel'),
      );
      // A typo of it is bridged as corrected.
      const typo = createToolIndex(CHAT).search('mkae a channel', { explain: true }).explanation?.words[0];
      expect(typo?.correctedTo).toBe('make');
      expect(typo?.expandedTo?.map((related) => related.word)).toEqual(['create']);
      const plain = createToolIndex(CHAT, { relatedWords: false }).search('make a channel').matches;
      expect(plain.indexOf('mcp__chat__create_channel')).toBeGreaterThan(
        plain.indexOf('mcp__chat__archive_channel'),
      );
    });

    it('leaves words some tool holds as they are, and bridges nothing when turned off', () => {
      const { explanation } = calls.search('read a file', { explain: true });
      expect(explanation?.words.every((word) => word.expandedTo === undefined)).toBe(true);
      expect(createToolIndex(CALLS, { relatedWords: false }).search('ring the office').matches).toEqual([]);
    });
  });
});
