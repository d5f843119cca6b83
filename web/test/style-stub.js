// CSS files are the bundler's business; unit tests import components that import them.
module.exports = {};
