import {
  DEFAULT_COMFYUI_WORKFLOW_PATH,
  type ComfyUiValues,
  fillComfyUiWorkflow,
  honouredSettings,
  loadComfyUiWorkflow,
  parseComfyUiWorkflow,
} from './comfyui-workflow';

const VALUES: ComfyUiValues = {
  prompt: '42',
  negative_prompt: '',
  width: 1344,
  height: 768,
  seed: 123,
  steps: 24,
  cfg: 6.5,
  sampler: 'euler',
  model: 'sd_xl_base_1.0.safetensors',
};

describe('ComfyUI workflows', () => {
  it('ships a text-to-image workflow that honours every advanced setting', () => {
    const workflow = loadComfyUiWorkflow(DEFAULT_COMFYUI_WORKFLOW_PATH);
    expect([...workflow.placeholders].sort()).toEqual([
      'cfg',
      'height',
      'model',
      'negative_prompt',
      'prompt',
      'sampler',
      'seed',
      'steps',
      'width',
    ]);
    expect(honouredSettings(workflow)).toEqual(['negativePrompt', 'seed', 'steps', 'cfgScale', 'sampler']);
    expect(workflow.fixedModel).toBeNull();
  });

  it('turns a whole numeric placeholder into a number and fills text ones as text, leaving links and the template alone', () => {
    const workflow = parseComfyUiWorkflow(
      {
        '1': {
          class_type: 'Sampler',
          inputs: { seed: '{{ seed }}', cfg: '{{cfg}}', text: '{{prompt}}', size: '{{width}}x{{height}}', model: ['4', 0], denoise: 1 },
        },
      },
      'inline.json',
    );
    expect(fillComfyUiWorkflow(workflow, VALUES)).toEqual({
      '1': { class_type: 'Sampler', inputs: { seed: 123, cfg: 6.5, text: '42', size: '1344x768', model: ['4', 0], denoise: 1 } },
    });
    expect(workflow.graph['1'].inputs.seed).toBe('{{ seed }}');
  });

  it('names the checkpoint a workflow fixes itself, and honours only the settings it has placeholders for', () => {
    const workflow = parseComfyUiWorkflow(
      {
        '1': { class_type: 'UNETLoader', inputs: { unet_name: 'flux1-dev.safetensors' } },
        '2': { class_type: 'CLIPTextEncode', inputs: { text: '{{prompt}}' } },
        '3': { class_type: 'KSampler', inputs: { steps: '{{steps}}', sampler_name: '{{sampler}}' } },
      },
      'flux.json',
    );
    expect(workflow.fixedModel).toBe('flux1-dev.safetensors');
    expect(honouredSettings(workflow)).toEqual(['steps', 'sampler']);
  });

  it('refuses what ComfyUI would not run, naming the source', () => {
    expect(() => parseComfyUiWorkflow([], 'list.json')).toThrow('The ComfyUI workflow list.json must be a JSON object of nodes');
    expect(() => parseComfyUiWorkflow({}, 'empty.json')).toThrow('The ComfyUI workflow empty.json has no nodes');
    expect(() => parseComfyUiWorkflow({ '1': { inputs: {} } }, 'bare.json')).toThrow('has a node "1" without class_type and inputs');
  });
});
