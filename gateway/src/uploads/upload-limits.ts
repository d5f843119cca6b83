import { AppError } from '@app/schema';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** Upload targets one member may ask for per hour. */
export const UPLOADS_PER_MEMBER_PER_HOUR = 30;
/** Upload targets one client address may ask for per hour (several members behind one address). */
export const UPLOADS_PER_ADDRESS_PER_HOUR = 120;

/** Per member and per address pace of new uploads (counted in this gateway's memory); past either, RATE_LIMITED. */
export class UploadLimits {
  private readonly perMember = new RateLimiterMemory({ keyPrefix: 'upload-member', points: UPLOADS_PER_MEMBER_PER_HOUR, duration: 3600 });
  private readonly perAddress = new RateLimiterMemory({
    keyPrefix: 'upload-address',
    points: UPLOADS_PER_ADDRESS_PER_HOUR,
    duration: 3600,
  });

  async take(memberId: string, clientIp: string): Promise<void> {
    await this.consume(this.perAddress, clientIp, 'Too many uploads from your network. Please try again later.');
    await this.consume(this.perMember, memberId, 'Too many uploads. Please try again later.');
  }

  private async consume(limiter: RateLimiterMemory, key: string, message: string): Promise<void> {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw new AppError('RATE_LIMITED', message, { retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) });
    }
  }
}
