import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { navigate, resultText, setUpUi, shown } from './e2e-kit.js';

/**
 * Issue #14, what servers ask the person: real `toolbridge serve` with its default servers, the
 * built renderer in real Chromium, an agent on the SDK's real client that declares sampling but
 * not elicitation. The reference server "everything" lists its elicitation and sampling tools
 * only to clients that declare them, so these calls also show Toolbridge declares both upstream.
 */

const prompts: string[] = [];
const ui = setUpUi('client-requests', {
  policy: 'allow',
  height: 1400,
  agent: {
    name: 'e2e-sampling-agent',
    capabilities: { sampling: {} },
    prepare: (client) =>
      client.setRequestHandler(CreateMessageRequestSchema, (request) => {
        const first = request.params.messages[0]?.content;
        prompts.push(first !== undefined && !Array.isArray(first) && first.type === 'text' ? first.text : '');
        return { role: 'assistant', content: { type: 'text', text: 'Sunny, 21 °C.' }, model: 'e2e-model' };
      }),
  },
});

function toolCall(name: string, args: Record<string, unknown> = {}) {
  return ui.agent.callTool(
    { name: 'tool_call', arguments: { calls: [{ name, arguments: args }] } },
    undefined,
    {
      timeout: 90_000,
    },
  );
}

/** Until `tool_describe` knows the tool: "everything" registers these after it initialized. */
async function whenListed(name: string): Promise<void> {
  await expect
    .poll(
      async () =>
        resultText(await ui.agent.callTool({ name: 'tool_describe', arguments: { names: [name] } })),
      { timeout: 30_000 },
    )
    .toContain('"parameters"');
}

describe('issue #14: cards for what a server asks', () => {
  it('an elicitation form card, filled in the page, completes the tool call', async () => {
    const name = 'mcp__everything__trigger-elicitation-request';
    await whenListed(name);
    await navigate(ui.page, 'cards');
    const pending = toolCall(name);
    const card = ui.page.locator('[data-kind="elicitation"]').first();
    await shown(card, 30_000);
    expect(await card.getByTestId('card-elicitation-message').textContent()).toContain(
      'Please provide inputs for the following fields:',
    );
    await card.getByTestId('card-input-name').fill('Ada Lovelace');
    await card.getByTestId('card-input-email').fill('ada@example.com');
    // Armed after a moment; Playwright waits for the button to be enabled.
    await card.getByTestId('card-accept').click();
    const text = resultText(await pending);
    expect(text).toContain('User provided the requested information');
    expect(text).toContain('- Name: Ada Lovelace');
    expect(text).toContain('- Email: ada@example.com');
    expect(text).toContain('"untitledMultipleSelectEnum": [\n      "Guitar"\n    ]');
    await card.waitFor({ state: 'detached', timeout: 15_000 });
  });

  it('a sampling approval card shows the prompt and the server; approving relays it to the agent', async () => {
    const name = 'mcp__everything__trigger-sampling-request';
    await whenListed(name);
    await navigate(ui.page, 'cards');
    const pending = toolCall(name, { prompt: 'What is the weather in Lisbon?', maxTokens: 64 });
    const card = ui.page.locator('[data-kind="sampling"]').first();
    await shown(card, 30_000);
    const messages = (await card.getByTestId('card-sampling-messages').textContent()) ?? '';
    expect(messages).toContain('What is the weather in Lisbon?');
    expect(await card.getByTestId('card-system-prompt').textContent()).toBe('You are a helpful test server.');
    expect(await card.textContent()).toContain('everything');
    expect(await card.textContent()).toContain('up to 64 tokens');
    expect(prompts).toEqual([]);
    await card.getByTestId('card-approve').click();
    const text = resultText(await pending);
    expect(text).toContain('LLM sampling result');
    expect(text).toContain('Sunny, 21 °C.');
    expect(prompts).toEqual(['Resource trigger-sampling-request context: What is the weather in Lisbon?']);
  });
});
