// The score sheet's one control: print it.
document.getElementById('print').addEventListener('click', () => window.print());
