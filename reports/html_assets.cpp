#include "reports/html_assets.h"

namespace bc {

const char* report_style() {
  return R"(
[hidden] { display: none !important; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 80em; padding: 0 1em; color: #111;
  overflow-wrap: anywhere; }
div.wide { max-width: 100%; overflow-x: auto; } div.wide > table { overflow-wrap: normal; }
h1 { font-size: 1.6em; margin-bottom: .2em; } h2 { border-bottom: 2px solid #888; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0; } th, td { border: 1px solid #999; padding: .2em .5em;
  text-align: left; vertical-align: top; } th { background: #eee; } caption { text-align: left; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre, .mono { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .92em; }
pre { background: #f6f6f6; border: 1px solid #ccc; padding: .5em; white-space: pre-wrap; word-break: break-all;
  margin: .2em 0 .6em; }
td pre { word-break: normal; overflow-wrap: break-word; min-width: 14ch; }
.verdict { font-size: 1.25em; font-weight: bold; padding: .3em .6em; border: 2px solid currentColor;
  display: inline-block; }
.verdict.failed { color: #a00; } .verdict.passed { color: #060; }
.flag { font-weight: bold; padding: 0 .3em; border: 1px solid currentColor; border-radius: 3px; }
.missing, .stale, .new > summary .flag, .odd { color: #a00; } .known > summary .flag { color: #555; }
tr.missing td, tr.stale td { background: #fdd; } th.odd-one { border-top: 4px solid #444; }
tr.differs th { background: #fd8; }
table.differences tr.undeclared td { font-weight: bold; border-left: 4px solid #444; }
td.diff { background: #fcc; outline: 2px solid #a00; } td.diff .sign { font-weight: bold; }
details.finding { border: 1px solid #999; border-left: 6px solid #a00; margin: .6em 0; padding: .3em .8em; }
details.finding.known { border-left-color: #888; }
details.finding { content-visibility: auto; contain-intrinsic-size: auto 2.4em; }
details.finding[open] { contain-intrinsic-size: auto 60em; }
details.finding > summary, details.coverage > summary { cursor: pointer; font-weight: 600; }
details.finding, section { scroll-margin-top: 5em; }
.filters { position: sticky; top: 0; background: #fff; padding: .4em 0; border-bottom: 1px solid #ccc; z-index: 1; }
.filters label { margin-right: .8em; white-space: nowrap; } .filters input[type=search] { width: 18em; }
table.shapes td { text-align: right; min-width: 3.5em; font-family: ui-monospace, Menlo, Consolas, monospace; }
table.shapes td.pad { color: #999; } table.shapes td.stretch { background: #def; font-style: italic; }
table.shapes td.clash { background: #fcc; font-weight: bold; outline: 2px solid #a00; }
table.shapes th.offending { font-weight: bold; text-decoration: underline; } table.shapes td.sum { background: #efe; }
.impossible { font-weight: 600; }
table.shapes td.matrix { background: #f4f0ff; } table.shapes tr.result td { border-top: 2px solid #444; }
table.shapes .gap { border: none; background: none; min-width: 1.2em; padding: 0; }
table.shapes tr.groups th { text-align: center; font-weight: normal; font-style: italic; }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .1em 1em; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; } .counts { display: flex; flex-wrap: wrap; gap: 0 2em; align-items: flex-start; }
.run-line { flex-basis: 100%; margin: .2em 0; }
.copy-bar { margin-top: .4em; } button.copy { font-size: .85em; } .copy-status { font-size: .85em; color: #333; }
.na { color: #777; }
@media print {
  body { max-width: none; font-size: 11pt; } div.wide { overflow-x: visible; }
  .filters, nav, button, .copy-status { display: none !important; }
  details.finding { break-inside: avoid; content-visibility: visible; } a { color: inherit; text-decoration: none; }
}
)";
}

const char* report_script() {
  return R"(
(function () {
  'use strict';
  function byId(id) { return document.getElementById(id); }
  var blocks = document.querySelectorAll('details.finding');
  var bar = byId('filters'), text = byId('filter-text'), count = byId('filter-count');
  var selects = bar ? bar.querySelectorAll('select[data-key]') : [];

  function shows(block) {
    for (var i = 0; i < selects.length; i++) {
      var want = selects[i].value;
      if (want === '') continue;
      var have = (block.getAttribute('data-' + selects[i].getAttribute('data-key')) || '').split(' ');
      if (have.indexOf(want) < 0) return false;
    }
    var q = text ? text.value.trim().toLowerCase() : '';
    return q === '' || block.textContent.toLowerCase().indexOf(q) >= 0;
  }
  function apply() {
    var shown = 0;
    for (var i = 0; i < blocks.length; i++) {
      var ok = shows(blocks[i]);
      blocks[i].hidden = !ok;
      if (ok) shown++;
    }
    if (count) count.textContent = shown + ' of ' + blocks.length + ' findings shown';
  }
  function openAll(open) {
    for (var i = 0; i < blocks.length; i++) blocks[i].open = open;
  }
  if (bar) {
    bar.hidden = false;
    if (text) text.addEventListener('input', apply);
    for (var i = 0; i < selects.length; i++) selects[i].addEventListener('change', apply);
    byId('open-all').addEventListener('click', function () { openAll(true); });
    byId('close-all').addEventListener('click', function () { openAll(false); });
    apply();
  }
  window.addEventListener('beforeprint', function () {
    var folded = document.querySelectorAll('details');
    for (var i = 0; i < folded.length; i++) folded[i].open = true;
  });

  function report(button, ok) {
    var status = button.parentNode.querySelector('.copy-status');
    button.setAttribute('data-copied', ok ? 'yes' : 'no');
    if (status) status.textContent = ok ? 'copied' : 'not copied: the text is selected, press Ctrl+C';
  }
  function copyBySelection(source, button) {
    var area = document.createElement('textarea');
    area.value = source.textContent;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.top = '0';
    area.style.left = '-9999px';
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(area);
    if (!ok) {
      var range = document.createRange(), selection = window.getSelection();
      range.selectNodeContents(source);
      selection.removeAllRanges();
      selection.addRange(range);
    }
    report(button, ok);
  }
  var buttons = document.querySelectorAll('button.copy');
  for (var b = 0; b < buttons.length; b++) {
    buttons[b].hidden = false;
    buttons[b].addEventListener('click', function (event) {
      var button = event.currentTarget, source = byId(button.getAttribute('data-copy'));
      if (!source) return;
      if (navigator.clipboard && navigator.clipboard.writeText && window.isSecureContext) {
        navigator.clipboard.writeText(source.textContent).then(
          function () { report(button, true); }, function () { copyBySelection(source, button); });
      } else {
        copyBySelection(source, button);
      }
    });
  }
})();
)";
}

}  // namespace bc
