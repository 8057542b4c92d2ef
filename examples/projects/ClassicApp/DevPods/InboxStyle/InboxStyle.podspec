Pod::Spec.new do |s|
  s.name             = 'InboxStyle'
  s.version          = '0.1.0'
  s.summary          = 'How the inbox and its notifications name a conversation.'
  s.homepage         = 'https://example.com/classicapp'
  s.license          = { :type => 'MIT' }
  s.author           = { 'ClassicApp' => 'dev@example.com' }
  s.source           = { :path => '.' }
  s.ios.deployment_target = '15.0'
  s.swift_version    = '5.9'
  s.source_files     = 'Sources/**/*.swift'
  s.exclude_files    = [
    'Sources/Internal/Previews.swift',
  ]
end
