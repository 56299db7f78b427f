" File types of the languages chess2rs reads (editors/vim).
autocmd BufRead,BufNewFile *.icp setfiletype infchesspro
autocmd BufRead,BufNewFile *.chc setfiletype chesscode
autocmd BufRead,BufNewFile *.pgn setfiletype chessoteric
autocmd BufRead,BufNewFile *.btm setfiletype btm
autocmd BufRead,BufNewFile *.fv  setfiletype finvara
