import { describe, expect, it } from 'vitest';
import { cardNotice, waitingCount, waitingLine } from '../../../src/api/card-notice.js';
import type { ConnectionCardView } from '../../../src/api/ui-api.js';
import { approvalCardView } from '../../fixtures/card-views.js';

const approval = approvalCardView();

const connection: ConnectionCardView = {
  kind: 'connection',
  id: 'd',
  agentId: 'claude',
  targets: [
    { name: 'gmail', kind: 'connector', state: 'initiated', app: { title: 'Gmail' } },
    { name: 'linear', kind: 'connector', state: 'initiated' },
  ],
  forTool: 'connectors__gmail__SEND_EMAIL',
  createdAt: '',
  expiresAt: '',
};

describe('cardNotice', () => {
  it('issue #16: says who wants what, the same words on the desktop and in the browser', () => {
    expect(cardNotice(approval)).toEqual({
      title: 'Approval needed',
      body: 'cursor wants to call mcp__files__write_file',
    });
    expect(cardNotice(connection)).toEqual({
      title: 'Connection needed',
      body: 'claude needs Gmail, linear connected for connectors__gmail__SEND_EMAIL',
    });
  });
});

describe('waitingLine', () => {
  it('names the one card waiting, or counts them', () => {
    expect(waitingLine([])).toBe('Nothing waiting');
    expect(waitingLine([approval])).toBe('cursor wants to call mcp__files__write_file: waiting for you');
    expect(waitingLine([approval, connection])).toBe('2 calls wait for you');
    // The desktop tray says the same.
    expect(waitingCount(0)).toBe('nothing waiting');
    expect(waitingCount(2)).toBe('2 calls wait for you');
    expect(waitingCount(1)).toBe('1 call waits for you');
  });
});
