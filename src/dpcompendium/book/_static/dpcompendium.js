/* dpcompendium: display maths that fit a phone's column (added to every page by dpcompendium.book.sphinxext).
   Long displays are broken by hand (aligned, split) so that each fits the book's column at a laptop's width; on a
   narrower screen (below 700 px) a display still wider than its column is set in a smaller type until it fits, but
   never below MIN_SIZE per cent of the text's (reader review 2, minor 7: shrunk to 42 %, an equation could not be
   read): one still wider at that size scrolls sideways inside its own box (class dpc-math-scrolls), and the page
   does not. Nothing changes at 700 px and above, or in print. */
(function () {
  var NARROW = 700;
  var MIN_SIZE = 80;
  function fit() {
    var all = document.querySelectorAll('mjx-container[display="true"]');
    for (var i = 0; i < all.length; i++) {
      var c = all[i];
      c.style.fontSize = '';
      c.classList.remove('dpc-math-scrolls');
      if (window.innerWidth >= NARROW || matchMedia('print').matches) continue;
      // a numbered display shares its line with its label (floated right), so its own box is narrower than its
      // parent's: fit the narrower of the two, measuring again after each step (a few at most)
      var box = c.parentElement ? Math.min(c.parentElement.clientWidth, c.clientWidth || Infinity) : c.clientWidth;
      var size = 100;
      for (var k = 0; k < 6 && box > 0; k++) {
        var wide = Math.max(c.scrollWidth, c.getBoundingClientRect().width);
        if (wide <= box + 1) break;
        if (size <= MIN_SIZE) { c.classList.add('dpc-math-scrolls'); break; }
        size = Math.max(MIN_SIZE, Math.floor(size * box / wide) - (k > 0 ? 2 : 0));
        c.style.fontSize = size + '%';
      }
    }
  }
  function start() {
    var mj = window.MathJax;
    var ready = mj && mj.startup && mj.startup.promise ? mj.startup.promise : Promise.resolve();
    ready.then(fit);
    var timer = null;
    window.addEventListener('resize', function () { clearTimeout(timer); timer = setTimeout(fit, 100); });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
  window.dpcFitMath = fit;
})();

/* the language switch (dpcompendium.book.i18n) opens the other edition's page in the same tab */
(function () {
  function same() {
    var links = document.querySelectorAll('a.dpc-language');
    for (var i = 0; i < links.length; i++) links[i].removeAttribute('target');
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', same); else same();
})();

/* Tables as cards on a phone (dpcompendium.css): the claims (table.dpc-claims, cards in print too) and a page's
   prose tables ("Comparison with the source", "Where the source is wrong", the primer's notation: table.dpc-cards,
   marked when the page is built, dpcompendium.book.tablenum). Each body cell carries its column's name in
   data-label, the card's label. Tables a chapter's code renders otherwise (numbers) stay in columns. */
(function () {
  function label() {
    var tables = document.querySelectorAll('table.dpc-claims, table.dpc-cards');
    for (var i = 0; i < tables.length; i++) {
      var head = tables[i].querySelector('thead tr:last-child');
      if (!head) continue;
      var names = Array.prototype.map.call(head.cells, function (c) { return plain(c.textContent); });
      var rows = tables[i].querySelectorAll('tbody tr');
      for (var r = 0; r < rows.length; r++) {
        for (var k = 0; k < rows[r].cells.length && k < names.length; k++) {
          if (names[k]) rows[r].cells[k].setAttribute('data-label', names[k]);
        }
      }
    }
  }
  // a label is text (CSS content): a header's maths, not yet typeset, without its TeX ("public \(n\)" → "public n")
  var GREEK = {varepsilon: 'ε', epsilon: 'ε', delta: 'δ', rho: 'ρ', mu: 'μ', sigma: 'σ', lambda: 'λ'};
  function plain(text) {
    return text.replace(/\\[()\[\]]/g, '').replace(/\\([A-Za-z]+)/g, function (m, w) { return GREEK[w] || ''; })
      .replace(/[{}]/g, '').replace(/\s+/g, ' ').trim();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', label); else label();
})();
