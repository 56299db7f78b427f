" Vim syntax file for Finvara (.fv), from chess2rs (editors/vim).
" Piece definitions, a board of `|..|` cells, then `Turn N C:` lines.
if exists('b:current_syntax')
  finish
endif

syn match  fvComment  /#.*$/
syn match  fvBorder   /^\s*+[-+]*+\s*$/
syn match  fvRow      /^\s*|.*|/ contains=fvHole,fvCell
syn match  fvHole     /##/ contained
syn match  fvCell     /\w\+\ze[WB]\s*|/ contained
syn match  fvSymbol   /^\s*(\s*\zs\w\+/
syn match  fvValue    /\(^\s*(\s*\w\+\s\+\)\@<=\(-\=\d\+\|x\|y\)/
syn match  fvLeap     /(\s*-\=\d\+\s*,\s*-\=\d\+\s*\(|[\^v<>]\+\)\=\s*)/
syn match  fvLike     /"\w\+"/
syn match  fvKeyword  /\<\(Turn\|checks\|turn\)\>/
syn match  fvSide     /\(Turn\s\+\d\+\s\+\)\@<=[WB]/
syn match  fvSquare   /\<[a-z]\+\d\+\>/
syn match  fvOperator /->\|[*`{}\[\],]/

hi def link fvComment  Comment
hi def link fvBorder   Delimiter
hi def link fvRow      Delimiter
hi def link fvHole     Special
hi def link fvCell     Type
hi def link fvSymbol   Type
hi def link fvValue    Number
hi def link fvLeap     Number
hi def link fvLike     Type
hi def link fvKeyword  Keyword
hi def link fvSide     Constant
hi def link fvSquare   Identifier
hi def link fvOperator Operator

let b:current_syntax = 'finvara'
