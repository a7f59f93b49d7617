/** One conformance check as the suite writes it to checks.json. */
export interface ConformanceCheck {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description?: string;
  errorMessage?: string;
}
export const CLIENT_SCENARIOS: string[];
export const FAILURE_NOTES: { server: Record<string, string>; client: Record<string, string> };
export function readExpected(file?: string): { server: Set<string>; client: Set<string> };
export function summarize(checks: ConformanceCheck[]): { passed: boolean; text: string };
