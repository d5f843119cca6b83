/** The self-AI upload page answers any path ending in "-self-ai" (spec §2). */
export function isSelfAiPath(pathname: string): boolean {
  return pathname.replace(/\/+$/, '').endsWith('-self-ai');
}
