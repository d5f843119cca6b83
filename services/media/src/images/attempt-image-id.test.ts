import { z } from 'zod';
import { attemptImageId } from './images.service';

describe('attemptImageId', () => {
  const job = '6f1c2a9e-4b7d-4c1e-9a3f-2d5e8b7c6a10';

  it('is a valid UUID, the same for the same job and attempt', () => {
    const id = attemptImageId(job, 1);
    expect(z.string().uuid().safeParse(id).success).toBe(true);
    expect(attemptImageId(job, 1)).toBe(id);
  });

  it('differs between attempts and between jobs, and from the job id itself', () => {
    const ids = new Set([job, attemptImageId(job, 1), attemptImageId(job, 2), attemptImageId('0b9e6c2f-8a41-4d3e-b5f7-1c2d3e4f5a6b', 1)]);
    expect(ids.size).toBe(4);
  });
});
