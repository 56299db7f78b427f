" Vim syntax file for Chessoteric games (.pgn), from chess2rs
" (editors/vim). A chess game in PGN; annotations are the program.
if exists('b:current_syntax')
  finish
endif

syn match  pgnMoveNumber /\<\d\+\.\(\.\.\)\=/
syn match  pgnMove       /\<\([KQRBN][a-h]\=[1-8]\=x\=[a-h][1-8]\|[a-h]x\=[a-h]\=[1-8]\(=[QRBN]\)\=\|O-O\(-O\)\=\)[+#]\=/ nextgroup=pgnAnnotation
syn match  pgnAnnotation /[!?]\{1,2}/ contained
syn match  pgnNag        /\$\d\+/
syn match  pgnResult     /\(1-0\|0-1\|1\/2-1\/2\|\*\)\s*$/
syn region pgnTag        start=/^\s*\[/ end=/\]/ contains=pgnTagValue
syn region pgnTagValue   start=/"/ skip=/\\"/ end=/"/ contained
syn region pgnComment    start=/{/ end=/}/
syn match  pgnComment    /;.*$/
syn region pgnVariation  start=/(/ end=/)/ contains=pgnVariation,pgnComment

hi def link pgnMoveNumber Number
hi def link pgnMove       Identifier
hi def link pgnAnnotation Special
hi def link pgnNag        Special
hi def link pgnResult     Keyword
hi def link pgnTag        PreProc
hi def link pgnTagValue   String
hi def link pgnComment    Comment
hi def link pgnVariation  Comment

let b:current_syntax = 'chessoteric'
