" Vim syntax file for InfChessPro (.icp), from chess2rs (editors/vim).
" A numbered line: `LABEL. COMMAND` then `?LABEL` / `!LABEL` jumps.
if exists('b:current_syntax')
  finish
endif

syn match icpComment  /^\s*#.*$/
syn match icpLabel    /^\s*\d\+\ze\s*\./ nextgroup=icpDot skipwhite
syn match icpDot      /\./ contained nextgroup=icpText skipwhite
syn match icpText     /".*$/ contained
syn match icpJump     /[?!]\s*\(\d\+\|\*\)/
syn match icpPiece    /=\s*\zs[KQRBNPkqrbnp]/
syn match icpCount    /%\s*\w\+/
syn match icpNumber   /\([=,;]\s*[KQRBNPkqrbnp]\?\s*\)\@<=[-+]\?\d\+/
syn match icpInput    /\*/
syn match icpName     /\(^\s*\d\+\s*\.\s*\)\@<=\w\+\ze\s*[=;]/
syn match icpNop      /\(^\s*\d\+\s*\.\s*\)\@<=\^/

hi def link icpComment Comment
hi def link icpLabel   Label
hi def link icpText    String
hi def link icpJump    Statement
hi def link icpPiece   Type
hi def link icpCount   Identifier
hi def link icpNumber  Number
hi def link icpInput   Special
hi def link icpName    Identifier
hi def link icpNop     Keyword

let b:current_syntax = 'infchesspro'
