import type { NextFunction, Request, Response } from 'express';

/** Past `maxInFlight` concurrent requests the gateway answers 503 at once rather than queueing into collapse. */
export function shedLoad(maxInFlight: number) {
  let inFlight = 0;
  return (_req: Request, res: Response, next: NextFunction): void => {
    if (inFlight >= maxInFlight) {
      res.setHeader('Retry-After', '1');
      res.status(503).json({ message: 'The server is busy; please retry shortly.', code: 'UNAVAILABLE' });
      return;
    }
    inFlight++;
    let released = false;
    const release = () => {
      if (!released) {
        released = true;
        inFlight--;
      }
    };
    res.on('finish', release);
    res.on('close', release);
    next();
  };
}
