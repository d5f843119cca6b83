/** The chat settings feature: who the member plays, how replies are sampled and by which model, and what reached the prompt. */
export { ChatSettingsMenu } from './components/chat-settings-menu';
export { ContextReport, ContextReportButton } from './components/context-report';
export { ConversationSettingsDialog } from './components/conversation-settings-dialog';
export { PersonaDialog } from './components/persona-dialog';
export { SamplerFields } from './components/sampler-fields';
export { EMPTY_SAMPLER_FORM, hasSamplerProblems, samplerProblems, toSamplerForm, toSamplerInput, type SamplerForm } from './sampler-model';
