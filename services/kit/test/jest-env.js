// Tests log nothing unless asked, and never touch the developer's ./data.
process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'silent';
