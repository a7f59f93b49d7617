/** Approvals: policies, cards, hooks, redaction, the audit log and the one gate every real tool call passes. */
export {
  type Approval,
  type ApprovalOutcome,
  ApprovalQueue,
  type ApprovalQueueOptions,
  type ApprovalRequest,
  type ApprovalWaitOptions,
  approvalBinding,
  type CardOutcome,
  type CardResolvedEvent,
  type Clock,
  DEFAULT_CARD_TIMEOUT_MS,
  type DispatchedCall,
  systemClock,
  verifyApproval,
} from './approval-queue.js';
export {
  type ApprovalSettings,
  Approvals,
  type ApprovalsOptions,
  type PolicyChange,
  UI_ACTOR_ID,
} from './approvals.js';
export {
  AUDIT_FILE_NAME,
  AuditLog,
  type AuditLogOptions,
  type AuditRecord,
  type AuditSink,
  csvCell,
} from './audit-log.js';
export { canonicalJson } from './canonical-json.js';
export { definitionHash } from './definition-hash.js';
export {
  ApprovalGate,
  type ApprovalGateOptions,
  type GateRequest,
  INTERRUPTED_MESSAGE,
  parseToolError,
  type RunTool,
  toolErrorResult,
} from './gate.js';
export {
  createRedactionHook,
  type HookCall,
  type PreCallVerdict,
  type ToolCallHook,
  ToolCallHooks,
} from './hooks.js';
export {
  DEFAULT_POLICY,
  decidePolicy,
  type PolicyConfig,
  type PolicyDecision,
  type PolicyRule,
  type PolicySubject,
  type RuleAccount,
  type ServerPolicy,
} from './policy.js';
export {
  keysForName,
  type PolicySettingsLike,
  policyConfigFromSettings,
  type ServerSettingsLike,
} from './policy-settings.js';
export { policyRuleId, policyRuleViews, type RuleTarget, toolPolicyView } from './policy-view.js';
export {
  BUILT_IN_SECRET_PATTERNS,
  checkRedactionPatterns,
  createRedactor,
  isSecretKey,
  type PatternProblem,
  REDACTED,
  type Redactor,
} from './redaction.js';
export {
  agentFacingName,
  nameMatchesKey,
  nameSkeleton,
  type ToolKey,
  type ToolKind,
} from './tool-key.js';
