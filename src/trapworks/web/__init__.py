"""The browser front end: static HTML/CSS/JS (ES modules, no build step) served by trapworks.server."""
