" Vim syntax file for Chess Code (.chc), from chess2rs (editors/vim).
" One command a line in move notation; `|` starts a comment.
if exists('b:current_syntax')
  finish
endif

syn match chcCell      /[a-h][1-8]/
syn match chcVariable  /\<[RNBQK]\ze\(x\=[a-h][1-8]\)/
syn match chcOperator  /[x+#=]/
syn match chcCastle    /\<O-O\(-O\)\=\>/
syn match chcLabel     /1\/2\s\+1\/2/
syn match chcComment   /|.*$/

hi def link chcCell     Identifier
hi def link chcVariable Type
hi def link chcOperator Operator
hi def link chcCastle   Keyword
hi def link chcLabel    Label
hi def link chcComment  Comment

let b:current_syntax = 'chesscode'
